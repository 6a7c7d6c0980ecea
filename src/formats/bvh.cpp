#include "asterune/formats/bvh.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <system_error>
#include <unordered_set>

#include <glm/gtc/constants.hpp>

namespace asterune::io {

const char* to_string(BvhChannel channel) {
  switch (channel) {
    case BvhChannel::kXposition: return "Xposition";
    case BvhChannel::kYposition: return "Yposition";
    case BvhChannel::kZposition: return "Zposition";
    case BvhChannel::kXrotation: return "Xrotation";
    case BvhChannel::kYrotation: return "Yrotation";
    case BvhChannel::kZrotation: return "Zrotation";
  }
  return "?";
}

namespace {

constexpr double kMaxBvhFrameTime = 3600.0;                      // seconds per frame
constexpr std::uintmax_t kMaxBvhFileBytes = std::uintmax_t{64} << 20;  // 64 MiB

struct Token {
  std::string_view text;
  int line = 0;
};

// Splits on any whitespace (space, tab, CR, LF, FF, VT), one token at a time: '{' and '}' are
// tokens of their own even when glued to a word; lines end at LF, CRLF or a lone CR. Lazily, so
// no token list is kept: a list took 24 bytes per number, and a 60 MB file of motion peaked at
// 1.25 GB (the Limits of formats.md promise well under 1 GiB for any file the reader takes).
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) { advance(); }
  bool at_end() const { return !has_; }
  /// The current token; at the end, the last one (its line names where the file stopped).
  const Token& token() const { return token_; }
  /// Bytes not yet read past the current token.
  size_t remaining() const { return text_.size() - i_; }
  void advance() {
    has_ = false;
    const size_t n = text_.size();
    while (i_ < n) {
      const char c = text_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (c == '\r') {
        ++line_;
        ++i_;
        if (i_ < n && text_[i_] == '\n') ++i_;
      } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
        ++i_;
      } else {
        const size_t start = i_++;
        if (c != '{' && c != '}')
          while (i_ < n && !ends_word(text_[i_])) ++i_;
        token_ = Token{text_.substr(start, i_ - start), line_};
        has_ = true;
        return;
      }
    }
  }

 private:
  static bool ends_word(char d) {
    return d == ' ' || d == '\t' || d == '\n' || d == '\r' || d == '\f' || d == '\v' || d == '{' || d == '}';
  }
  std::string_view text_;
  size_t i_ = 0;
  int line_ = 1;
  Token token_{{}, 1};
  bool has_ = false;
};

bool parse_channel(std::string_view s, BvhChannel& out) {
  static constexpr std::array<std::pair<std::string_view, BvhChannel>, 6> kNames{{
      {"Xposition", BvhChannel::kXposition}, {"Yposition", BvhChannel::kYposition},
      {"Zposition", BvhChannel::kZposition}, {"Xrotation", BvhChannel::kXrotation},
      {"Yrotation", BvhChannel::kYrotation}, {"Zrotation", BvhChannel::kZrotation}}};
  for (const auto& [name, channel] : kNames) {
    if (s == name) {
      out = channel;
      return true;
    }
  }
  return false;
}

bool is_rotation(BvhChannel c) {
  return c == BvhChannel::kXrotation || c == BvhChannel::kYrotation || c == BvhChannel::kZrotation;
}

int axis_of(BvhChannel c) {
  switch (c) {
    case BvhChannel::kXposition:
    case BvhChannel::kXrotation: return 0;
    case BvhChannel::kYposition:
    case BvhChannel::kYrotation: return 1;
    default: return 2;
  }
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : lex_(text), source_(source) {}

  Result<BvhFile> run();

 private:
  // Error helpers: "<source>:<line>: <reason>".
  Error error_at(int line, const std::string& reason) const {
    return make_error(source_ + ":" + std::to_string(line) + ": " + reason);
  }
  Error error_here(const std::string& reason) const { return error_at(current_line(), reason); }
  int current_line() const { return lex_.token().line; }
  bool at_end() const { return lex_.at_end(); }
  std::string_view peek() const { return at_end() ? std::string_view{} : lex_.token().text; }

  // Reads a number token; fails on missing, non-numeric or nonfinite text.
  std::optional<Error> read_number(const char* what, double& out) {
    if (at_end()) return error_here(std::string("unexpected end of file, expected ") + what);
    const Token& tok = lex_.token();
    std::string_view s = tok.text;
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    double value = 0.0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
      return error_at(tok.line, std::string("expected ") + what + ", found '" + std::string(tok.text) + "'");
    if (!std::isfinite(value))
      return error_at(tok.line, std::string(what) + " is not finite ('" + std::string(tok.text) + "')");
    // Every number ends up in a float (offsets, positions, times): refuse it here, not as inf later.
    if (std::fabs(value) > static_cast<double>(std::numeric_limits<float>::max()))
      return error_at(tok.line, std::string(what) + " is too large for a float ('" + std::string(tok.text) + "')");
    lex_.advance();
    out = value;
    return std::nullopt;
  }

  std::optional<Error> expect(std::string_view word) {
    if (at_end()) return error_here("unexpected end of file, expected '" + std::string(word) + "'");
    if (peek() != word)
      return error_here("expected '" + std::string(word) + "', found '" + std::string(peek()) + "'");
    lex_.advance();
    return std::nullopt;
  }

  std::optional<Error> read_vec3(const char* what, glm::vec3& out) {
    for (int k = 0; k < 3; ++k) {
      double v = 0.0;
      if (auto e = read_number(what, v)) return e;
      out[k] = static_cast<float>(v);
    }
    return std::nullopt;
  }

  std::optional<Error> parse_joint(int parent, int depth);
  std::optional<Error> parse_motion(BvhFile& file);

  Lexer lex_;
  const std::string& source_;
  std::unordered_set<std::string> name_set_;

  // Hierarchy under construction.
  std::vector<std::string> names_;
  std::vector<int> parents_;
  std::vector<glm::vec3> offsets_;
  std::vector<glm::vec3> end_sites_;
  std::vector<std::vector<BvhChannel>> channels_;
  int channel_total_ = 0;
};

std::optional<Error> Parser::parse_joint(int parent, int depth) {
  if (depth > 1000) return error_here("hierarchy is nested too deeply");
  // The keyword (ROOT/JOINT) was consumed by the caller; next is the name.
  if (at_end()) return error_here("unexpected end of file, expected a joint name");
  const Token name_tok = lex_.token();
  if (name_tok.text == "{" || name_tok.text == "}") return error_at(name_tok.line, "joint has no name");
  lex_.advance();
  const std::string name(name_tok.text);
  if (!name_set_.insert(name).second) return error_at(name_tok.line, "duplicate joint name '" + name + "'");
  const int index = static_cast<int>(names_.size());
  names_.push_back(name);
  parents_.push_back(parent);
  offsets_.emplace_back(0.0f);
  end_sites_.emplace_back(0.0f);
  channels_.emplace_back();

  if (auto e = expect("{")) return e;
  if (auto e = expect("OFFSET")) return e;
  glm::vec3 offset(0.0f);
  if (auto e = read_vec3("OFFSET value", offset)) return e;
  offsets_[static_cast<size_t>(index)] = offset;

  if (peek() == "CHANNELS") {
    const int line = lex_.token().line;
    lex_.advance();
    double count_value = 0.0;
    if (auto e = read_number("channel count", count_value)) return e;
    if (count_value < 0.0 || count_value > 6.0 || count_value != std::floor(count_value))
      return error_at(line, "joint '" + name + "': channel count must be an integer 0..6, found " +
                                std::to_string(count_value));
    const int count = static_cast<int>(count_value);
    std::vector<BvhChannel> list;
    for (int c = 0; c < count; ++c) {
      if (at_end()) return error_here("unexpected end of file in CHANNELS of joint '" + name + "'");
      const Token& tok = lex_.token();
      BvhChannel channel{};
      if (!parse_channel(tok.text, channel)) {
        if (tok.text == "JOINT" || tok.text == "End" || tok.text == "}" || tok.text == "{")
          return error_at(tok.line, "joint '" + name + "' declares " + std::to_string(count) +
                                        " channels but lists only " + std::to_string(c));
        return error_at(tok.line, "joint '" + name + "': unknown channel '" + std::string(tok.text) + "'");
      }
      for (BvhChannel seen : list)
        if (seen == channel)
          return error_at(tok.line, "joint '" + name + "': channel '" + std::string(tok.text) + "' repeated");
      list.push_back(channel);
      lex_.advance();
    }
    if (!at_end()) {
      BvhChannel extra{};
      if (parse_channel(peek(), extra))
        return error_here("joint '" + name + "' declares " + std::to_string(count) + " channels but lists more");
    }
    channel_total_ += count;
    channels_[static_cast<size_t>(index)] = std::move(list);
  }

  bool has_end_site = false;
  while (true) {
    if (at_end()) return error_here("unexpected end of file: joint '" + name + "' is missing its closing '}'");
    const std::string_view word = peek();
    if (word == "}") {
      lex_.advance();
      return std::nullopt;
    }
    if (word == "JOINT") {
      lex_.advance();
      if (auto e = parse_joint(index, depth + 1)) return e;
    } else if (word == "End") {
      lex_.advance();
      if (auto e = expect("Site")) return e;
      if (has_end_site) return error_here("joint '" + name + "' has two End Sites");
      has_end_site = true;
      if (auto e = expect("{")) return e;
      if (auto e = expect("OFFSET")) return e;
      glm::vec3 site(0.0f);
      if (auto e = read_vec3("End Site OFFSET value", site)) return e;
      if (auto e = expect("}")) return e;
      end_sites_[static_cast<size_t>(index)] = site;
    } else if (word == "MOTION" || word == "ROOT") {
      return error_here("joint '" + name + "' is missing its closing '}' before '" + std::string(word) + "'");
    } else {
      return error_here("unexpected '" + std::string(word) + "' in joint '" + name + "'");
    }
  }
}

std::optional<Error> Parser::parse_motion(BvhFile& file) {
  if (auto e = expect("MOTION")) return e;
  if (auto e = expect("Frames:")) return e;
  const int frames_line = current_line();
  double frames_value = 0.0;
  if (auto e = read_number("frame count", frames_value)) return e;
  if (frames_value < 1.0 || frames_value != std::floor(frames_value) || frames_value > 1e8)
    return error_at(frames_line, "frame count must be a positive integer, found " + std::to_string(frames_value));
  const int frames = static_cast<int>(frames_value);
  if (auto e = expect("Frame")) return e;
  if (auto e = expect("Time:")) return e;
  const int time_line = current_line();
  double frame_time = 0.0;
  if (auto e = read_number("frame time", frame_time)) return e;
  if (!(frame_time > 0.0)) return error_at(time_line, "frame time must be positive");
  if (frame_time > kMaxBvhFrameTime)
    return error_at(time_line, "frame time must be at most " + std::to_string(static_cast<int>(kMaxBvhFrameTime)) +
                                   " seconds, found " + std::to_string(frame_time));

  const size_t joint_count = names_.size();
  const size_t channels = static_cast<size_t>(channel_total_);
  // Never trust the declared count for memory: reserve at most what the text can hold.
  std::vector<double> values;
  values.reserve(std::min(static_cast<size_t>(frames) * channels, lex_.remaining() / 2 + 1));
  // Every frame is one line holding exactly `channels` numbers (none when no joint has channels).
  for (int f = 0; f < frames && channels > 0; ++f) {
    if (at_end())
      return error_here("truncated motion: " + std::to_string(frames) + " frames declared but only " +
                        std::to_string(f) + " present");
    const int line = lex_.token().line;
    size_t count = 0;
    while (!at_end() && lex_.token().line == line) {
      if (count == channels)
        return error_at(line, "frame " + std::to_string(f) + " has more than " + std::to_string(channels) + " values");
      double v = 0.0;
      if (auto e = read_number("motion value", v)) return e;
      values.push_back(v);
      ++count;
    }
    if (count != channels)
      return error_at(line, "frame " + std::to_string(f) + " has " + std::to_string(count) + " values, expected " +
                                std::to_string(channels));
  }
  if (!at_end())
    return error_here("surplus motion data after " + std::to_string(frames) + " frames: '" + std::string(peek()) + "'");

  // Build the skeleton and the clip.
  SourceSkeleton& sk = file.skeleton;
  sk.joint_names = names_;
  sk.parents = parents_;
  sk.end_sites = end_sites_;
  sk.rest_local.resize(joint_count);
  for (size_t j = 0; j < joint_count; ++j) sk.rest_local[j] = Transform::from_position(offsets_[j]);
  sk.units_to_studs = 1.0f;

  const float ft = static_cast<float>(frame_time);
  // Key times only when some joint has channels: then every frame's values were read above,
  // so the count is backed by text. A file without channels declares frames with no data
  // behind them and gets no per-frame allocation at all.
  std::vector<float> times;
  if (channels > 0) {
    times.resize(static_cast<size_t>(frames));
    for (int f = 0; f < frames; ++f) times[static_cast<size_t>(f)] = static_cast<float>(f * frame_time);
  }
  file.clip.duration = static_cast<float>((frames - 1) * frame_time);
  file.clip.tracks.resize(joint_count);
  size_t first_channel = 0;
  const glm::vec3 axes[3] = {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)};
  for (size_t j = 0; j < joint_count; ++j) {
    ClipTrack& track = file.clip.tracks[j];
    track.name = names_[j];
    const std::vector<BvhChannel>& list = channels_[j];
    bool has_rotation = false;
    bool has_position = false;
    for (BvhChannel c : list) (is_rotation(c) ? has_rotation : has_position) = true;
    if (has_rotation) {
      track.rotation_times = times;
      track.rotations.resize(static_cast<size_t>(frames));
    }
    if (has_position) {
      track.translation_times = times;
      track.translations.resize(static_cast<size_t>(frames));
    }
    for (size_t f = 0; f < static_cast<size_t>(frames); ++f) {
      if (list.empty()) break;
      const double* row = &values[f * channels + first_channel];
      // Intrinsic composition in file order: R = R_c0 * R_c1 * R_c2 (double precision).
      glm::dquat r(1.0, 0.0, 0.0, 0.0);
      glm::vec3 p = offsets_[j];
      for (size_t c = 0; c < list.size(); ++c) {
        const int axis = axis_of(list[c]);
        if (is_rotation(list[c])) {
          r = r * glm::angleAxis(glm::radians(row[c]), glm::dvec3(axes[axis]));
        } else {
          p[axis] = static_cast<float>(row[c]);
        }
      }
      if (has_rotation) track.rotations[f] = glm::quat(glm::normalize(r));
      if (has_position) track.translations[f] = p;
    }
    first_channel += list.size();
  }
  file.channels = channels_;
  file.frame_count = frames;
  file.frame_time = ft;
  return std::nullopt;
}

Result<BvhFile> Parser::run() {
  BvhFile file;
  if (auto e = expect("HIERARCHY")) return *e;
  if (peek() != "ROOT") return error_here("expected 'ROOT', found '" + std::string(peek()) + "'");
  while (peek() == "ROOT") {
    lex_.advance();
    if (auto e = parse_joint(-1, 0)) return *e;
  }
  if (at_end()) return error_here("unexpected end of file, expected 'MOTION'");
  if (peek() == "}") return error_here("unbalanced '}' after the hierarchy");
  if (auto e = parse_motion(file)) return *e;
  return file;
}

std::string stem_of(const std::string& path) { return std::filesystem::path(path).stem().string(); }

}  // namespace

Result<BvhFile> parse_bvh(std::string_view text, const std::string& source_name) {
  Parser parser(text, source_name);
  Result<BvhFile> result = parser.run();
  if (result.ok()) {
    result.value().skeleton.name = source_name;
    result.value().clip.name = source_name;
  }
  return result;
}

Result<BvhFile> load_bvh(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    return make_error(path + ": not a regular file (directories, devices and pipes are refused)");
  if (!ec && std::filesystem::is_regular_file(status)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxBvhFileBytes)
      return make_error(path + ": file is " + std::to_string(size) + " bytes, more than the BVH limit of " +
                        std::to_string(kMaxBvhFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(path + ": cannot open BVH file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return make_error(path + ": read error");
  const std::string text = std::move(buffer).str();  // moved out, not copied
  Result<BvhFile> result = parse_bvh(text, path);
  if (result.ok()) {
    result.value().skeleton.name = stem_of(path);
    result.value().clip.name = stem_of(path);
  }
  return result;
}

}  // namespace asterune::io
