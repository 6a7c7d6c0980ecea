// GraphInstance: parameters (rule GR1), the per-frame update's driver (rules GR2-GR13), the
// last update's node report and snapshot/restore (rule GR14).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "asterune/rig/rig.hpp"
#include "core/state_archive.hpp"
#include "graph/graph_tick.hpp"

namespace asterune {

using graph_detail::NodeState;

GraphInstance::GraphInstance() = default;
GraphInstance::~GraphInstance() = default;
GraphInstance::GraphInstance(GraphInstance&&) noexcept = default;
GraphInstance& GraphInstance::operator=(GraphInstance&&) noexcept = default;

int GraphInstance::node_count() const { return impl_ ? static_cast<int>(impl_->defs.size()) : 0; }
int GraphInstance::parameter_count() const { return impl_ ? static_cast<int>(impl_->params.size()) : 0; }
const std::string& GraphInstance::node_id(int node) const { return impl_->defs[static_cast<size_t>(node)].id; }
const std::string& GraphInstance::parameter_name(int p) const { return impl_->params[static_cast<size_t>(p)].name; }
GraphParameterType GraphInstance::parameter_type(int p) const { return impl_->params[static_cast<size_t>(p)].type; }
int GraphInstance::string_capacity() const { return impl_ ? static_cast<int>(impl_->string_capacity) : 0; }

int GraphInstance::find_node(std::string_view id) const {
  for (int i = 0; i < node_count(); ++i)
    if (impl_->defs[static_cast<size_t>(i)].id == id) return i;
  return -1;
}

GraphParameter GraphInstance::find_parameter(std::string_view name) const {
  for (int i = 0; i < parameter_count(); ++i)
    if (impl_->params[static_cast<size_t>(i)].name == name) return GraphParameter{i};
  return {};
}

namespace {
bool is(const GraphInstance::Impl* impl, GraphParameter p, GraphParameterType t) {
  return impl && p.index >= 0 && p.index < static_cast<int>(impl->params.size()) &&
         impl->params[static_cast<size_t>(p.index)].type == t;
}
}  // namespace

bool GraphInstance::set_number(GraphParameter p, float value) {
  if (!is(impl_.get(), p, GraphParameterType::kNumber) || !std::isfinite(value)) return false;
  impl_->numbers[static_cast<size_t>(p.index)] = value;
  return true;
}
bool GraphInstance::set_bool(GraphParameter p, bool value) {
  if (!is(impl_.get(), p, GraphParameterType::kBool)) return false;
  impl_->bools[static_cast<size_t>(p.index)] = value ? 1 : 0;
  return true;
}
bool GraphInstance::set_string(GraphParameter p, std::string_view value) {
  if (!is(impl_.get(), p, GraphParameterType::kString) || value.size() > impl_->string_capacity) return false;
  impl_->strings[static_cast<size_t>(p.index)].assign(value.data(), value.size());  // within capacity: no allocation
  return true;
}
float GraphInstance::number(GraphParameter p) const {
  return is(impl_.get(), p, GraphParameterType::kNumber) ? impl_->numbers[static_cast<size_t>(p.index)] : 0.0f;
}
bool GraphInstance::boolean(GraphParameter p) const {
  return is(impl_.get(), p, GraphParameterType::kBool) && impl_->bools[static_cast<size_t>(p.index)] != 0;
}
std::string_view GraphInstance::string(GraphParameter p) const {
  return is(impl_.get(), p, GraphParameterType::kString) ? std::string_view(impl_->strings[static_cast<size_t>(p.index)])
                                                         : std::string_view();
}

GraphReport GraphInstance::update(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage,
                                  std::span<GraphEvent> events, bool root_motion) {
  GraphReport report;
  if (!impl_ || rig.signature() != impl_->rig_signature || static_cast<int>(local.size()) != impl_->joints ||
      static_cast<int>(coverage.size()) != impl_->joints)
    return report;
  Impl& impl = *impl_;
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  for (NodeState& st : impl.state) {
    if (!st.active) st.head = 0;  // rule GR16: after an update without it, no travel on the first
    st.active = 0;
    st.weight = 0.0f;
  }
  impl.extract_root = root_motion && impl.root_joint >= 0;
  std::fill(impl.wraps.begin(), impl.wraps.end(), 0);
  std::fill(impl.weights_fresh.begin(), impl.weights_fresh.end(), std::uint8_t{0});
  impl.events = events.data();
  impl.event_capacity = static_cast<int>(events.size());
  impl.events_written = impl.events_dropped = 0;
  impl.ignored_values = 0;
  graph_detail::Ticker ticker{impl};
  ticker.tick(impl.output, dt, 1.0f, 1.0f, nullptr);
  if (!graph_detail::evaluate(impl, rig, impl.output)) return report;
  const size_t n = static_cast<size_t>(impl.joints);
  std::memcpy(static_cast<void*>(local.data()), impl.pose(impl.output), n * sizeof(Transform));
  std::memcpy(coverage.data(), impl.cov(impl.output), n * sizeof(float));
  report.ok = true;
  if (impl.extract_root) {  // rule GR16: the output's blended step
    const graph_detail::RootStep& st = impl.steps[static_cast<size_t>(impl.output)];
    report.root_step = Transform{glm::angleAxis(st.yaw, glm::vec3(0.0f, 1.0f, 0.0f)), st.travel};
  }
  const size_t feet = impl.foot_labels.size();
  for (size_t f = 0; f < feet; ++f) {
    const size_t at = static_cast<size_t>(impl.output) * feet + f;
    const float kw = impl.foot_kw[at];
    impl.foot_weight[f] = kw > 0.0f ? std::clamp(impl.foot_cw[at] / kw, 0.0f, 1.0f) : 0.0f;
  }
  graph_detail::plant_output(impl, rig, dt, local);  // rule LO15, on the blended contacts
  report.ignored_values = impl.ignored_values;
  report.events_written = impl.events_written;
  report.events_dropped = impl.events_dropped;
  impl.events = nullptr;
  return report;
}

bool GraphInstance::sample_pose(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage) {
  return update(rig, dt, local, coverage).ok;
}

PoseSourceSample GraphInstance::sample(const Rig& rig, float dt, std::span<Transform> local, std::span<float> coverage,
                                       std::span<PoseSourceEvent> events, int root_joint) {
  const bool root = impl_ && root_joint >= 0 && root_joint == impl_->root_joint;
  const GraphReport r = update(rig, dt, local, coverage, events, root);
  PoseSourceSample s;
  s.ok = r.ok;
  s.events_written = r.events_written;
  s.events_dropped = r.events_dropped;
  s.root_step = r.root_step;
  return s;
}

bool GraphInstance::extracts_root_motion() const { return impl_ && impl_->root_joint >= 0; }

int GraphInstance::foot_count() const { return impl_ ? static_cast<int>(impl_->foot_labels.size()) : 0; }
std::string_view GraphInstance::foot_label(int foot) const {
  return foot >= 0 && foot < foot_count() ? std::string_view(impl_->foot_labels[static_cast<size_t>(foot)])
                                          : std::string_view();
}
float GraphInstance::foot_contact_weight(int foot) const {
  return foot >= 0 && foot < foot_count() ? impl_->foot_weight[static_cast<size_t>(foot)] : 0.0f;
}
bool GraphInstance::foot_contact(int foot) const { return foot_contact_weight(foot) >= 0.5f; }

int GraphInstance::event_capacity() const {
  if (!impl_) return 0;
  long total = 0;
  for (const auto& d : impl_->defs)
    if (d.type == GraphNodeType::kClip)
      total += 5L * static_cast<long>(d.markers.size()) * (d.play_mode == GraphPlayMode::kPingPong ? 2 : 1);
  return static_cast<int>(std::min(total, 1L << 20));
}

float GraphInstance::node_weight(int node) const {
  if (node < 0 || node >= node_count()) return 0.0f;
  const NodeState& st = impl_->state[static_cast<size_t>(node)];
  return st.active ? st.weight : 0.0f;
}
float GraphInstance::node_time(int node) const {
  if (node < 0 || node >= node_count() || impl_->defs[static_cast<size_t>(node)].type != GraphNodeType::kClip) return 0.0f;
  return impl_->state[static_cast<size_t>(node)].time;
}
float GraphInstance::node_phase(int node) const {
  if (node < 0 || node >= node_count()) return 0.0f;
  const auto& d = impl_->defs[static_cast<size_t>(node)];
  const NodeState& st = impl_->state[static_cast<size_t>(node)];
  if (d.type == GraphNodeType::kClip) {
    graph_detail::Ticker t{*impl_};
    const auto trim = t.trim(d);
    const float len = trim.te - trim.ts;
    const float p = len > 0.0f ? (st.time - trim.ts) / len : 0.0f;
    return p >= 1.0f ? 0.0f : p;
  }
  if (d.type == GraphNodeType::kBlend1D || d.type == GraphNodeType::kBlend2D) return st.phase;
  return 0.0f;
}
int GraphInstance::node_cycles(int node) const {
  if (node < 0 || node >= node_count()) return 0;
  return impl_->state[static_cast<size_t>(node)].cycles;
}

// --- snapshot (rule GR14): header, parameters (each only its own type's value), per node only
// the state its type keeps (what the next update reads; node weights and other reports are
// recomputed by it), the pose buffers transitions read (the selectors' shown poses and their
// from-poses), then the string parameters. ---------------------------------------------------
namespace {

using graph_detail::NodeDef;
using detail::StateArchive;

struct Header {
  std::uint64_t signature;
  std::uint64_t size;
};

void node_state(StateArchive& ar, const NodeDef& d, NodeState& st) {
  ar.field(st.cycles);
  ar.field(st.shown);
  ar.field(st.active);
  switch (d.type) {
    case GraphNodeType::kClip:
      ar.field(st.time);
      ar.field(st.phase);
      ar.field(st.done);
      ar.field(st.started);
      ar.field(st.head);
      if (st.head == 1 || ar.mode != detail::StateMode::kWrite) {
        ar.field(st.head_yaw);
        ar.field(st.head_x);
        ar.field(st.head_z);
      } else {  // no heading held: zeros, so equal states write equal bytes
        float zero = 0.0f;
        ar.field(zero);
        ar.field(zero);
        ar.field(zero);
      }
      break;
    case GraphNodeType::kBlend1D:
    case GraphNodeType::kBlend2D: ar.field(st.phase); break;
    case GraphNodeType::kSelect:
    case GraphNodeType::kPrioritySelect:
    case GraphNodeType::kSequence:
    case GraphNodeType::kRandomSequence:
      ar.field(st.phase);
      ar.field(st.te);
      ar.field(st.td);
      ar.field(st.cur);
      ar.field(st.prev);
      ar.field(st.loops);
      ar.field(st.done);
      ar.field(st.started);
      ar.field(st.frozen);
      ar.field(st.curve);
      ar.field(st.inertial);
      ar.field(st.last_trigger);
      if (d.type == GraphNodeType::kRandomSequence) ar.field(st.rng);
      break;
    default: break;  // Over, Add, Subtract, Mask, Speed: cycles and flags only
  }
}

// Each parameter keeps one value, of its own type: the others' slots are never read.
void parameter_values(GraphInstance::Impl& impl, StateArchive& ar) {
  for (size_t i = 0; i < impl.params.size(); ++i) {
    if (impl.params[i].type == GraphParameterType::kNumber) ar.field(impl.numbers[i]);
    else if (impl.params[i].type == GraphParameterType::kBool) ar.field(impl.bools[i]);
  }
}

size_t string_parameter_count(const GraphInstance::Impl& impl) {
  size_t count = 0;
  for (const GraphParameterDesc& p : impl.params) count += p.type == GraphParameterType::kString ? 1 : 0;
  return count;
}

void layout(GraphInstance::Impl& impl, StateArchive& ar) {
  parameter_values(impl, ar);
  for (size_t i = 0; i < impl.defs.size(); ++i) node_state(ar, impl.defs[i], impl.state[i]);
  const size_t n = static_cast<size_t>(impl.joints);
  for (size_t i = 0; i < impl.defs.size(); ++i)
    if (impl.defs[i].from_slot >= 0) {
      ar.array(impl.pose(static_cast<int>(i)), n);
      ar.array(impl.cov(static_cast<int>(i)), n);
    }
  ar.array(impl.from_poses.data(), impl.from_poses.size());
  ar.array(impl.from_covs.data(), impl.from_covs.size());
  ar.array(impl.plant_state.data(), impl.plant_state.size());  // rule LO15's holds
  // Strings: their length, then their bytes (as many as the longest a parameter may hold).
  for (size_t i = 0; i < impl.strings.size(); ++i) {
    if (impl.params[i].type != GraphParameterType::kString) continue;
    std::string& str = impl.strings[i];
    std::uint32_t len = static_cast<std::uint32_t>(str.size());
    ar.field(len);
    if (ar.reading()) {
      str.assign(reinterpret_cast<const char*>(ar.in + ar.at), len);  // within capacity: no allocation
    } else if (ar.mode == detail::StateMode::kWrite) {
      std::memset(ar.out + ar.at, 0, impl.string_capacity);
      if (len) std::memcpy(ar.out + ar.at, str.data(), len);
    }
    ar.at += impl.string_capacity;
  }
}

}  // namespace

std::size_t GraphInstance::snapshot_size() const {
  if (!impl_) return 0;
  StateArchive ar;
  ar.at = sizeof(Header);
  layout(*impl_, ar);
  return ar.at;
}

bool GraphInstance::snapshot(std::span<std::byte> out) const {
  const std::size_t size = snapshot_size();
  if (!impl_ || out.size() < size) return false;
  const Header h{impl_->signature, size};
  std::memcpy(out.data(), &h, sizeof h);
  StateArchive ar{detail::StateMode::kWrite, out.data(), nullptr, sizeof h};
  layout(*impl_, ar);  // writes only: the instance is not changed
  return true;
}

bool GraphInstance::restore(std::span<const std::byte> in) {
  const std::size_t size = snapshot_size();
  if (!impl_ || in.size() < size) return false;
  Header h{};
  std::memcpy(&h, in.data(), sizeof h);
  if (h.signature != impl_->signature || h.size != size) return false;
  // Validate what could break the instance (string lengths, input slots) before changing it.
  StateArchive probe{detail::StateMode::kSize, nullptr, nullptr, sizeof h};
  {
    GraphInstance::Impl& impl = *impl_;
    parameter_values(impl, probe);
    for (size_t i = 0; i < impl.defs.size(); ++i) {
      const NodeDef& d = impl.defs[i];
      NodeState st{};
      StateArchive one{detail::StateMode::kRead, nullptr, in.data(), probe.at};
      node_state(one, d, st);
      const auto inputs = static_cast<std::int32_t>(d.inputs.size());
      if (st.cur >= inputs || st.prev >= inputs || st.cur < -1 || st.prev < -1) return false;
      probe.at = one.at;
    }
  }
  const size_t string_count = string_parameter_count(*impl_);
  const std::size_t strings_at = size - string_count * (sizeof(std::uint32_t) + impl_->string_capacity);
  for (size_t i = 0; i < string_count; ++i) {
    std::uint32_t len = 0;
    std::memcpy(&len, in.data() + strings_at + i * (sizeof len + impl_->string_capacity), sizeof len);
    if (len > impl_->string_capacity) return false;
  }
  StateArchive ar{detail::StateMode::kRead, nullptr, in.data(), sizeof h};
  layout(*impl_, ar);
  return true;
}

std::size_t GraphInstance::state_size() const { return snapshot_size(); }
bool GraphInstance::save_state(std::span<std::byte> out) const { return snapshot(out); }
bool GraphInstance::load_state(std::span<const std::byte> in) { return restore(in); }

}  // namespace asterune
