#!/usr/bin/env python3
"""Writes the fuzz seed corpora (corpus/<target>/) and the regression corpus (regression/<target>/).

Seeds are small inputs derived from tests/data and examples/ (BVH clips cut to their first
frames, glTF re-packed as GLB). Regression inputs reproduce each hostile-input finding of the
fuzzing campaign (docs/formats.md, "Limits"); the file name says which. Run from anywhere:
    python3 tests/fuzz/make_inputs.py
The outputs are committed; rerunning rewrites them byte for byte.
"""
import base64
import json
import pathlib
import struct

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = ROOT / "tests" / "data"


def write(folder, name, content):
    d = HERE / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(content if isinstance(content, bytes) else content.encode())


def bvh_head(path, frames):
    """The hierarchy and the first `frames` frames of a BVH file."""
    lines = path.read_text().splitlines()
    m = next(i for i, l in enumerate(lines) if l.strip() == "MOTION")
    body = lines[m + 3:m + 3 + frames]
    return "\n".join(lines[:m] + ["MOTION", f"Frames: {frames}", lines[m + 2].strip()] + body) + "\n"


def glb_from_gltf(doc):
    """Packs a glTF whose buffers are data URIs into one GLB with a single BIN chunk."""
    blob = b""
    offsets = []
    for b in doc["buffers"]:
        data = base64.b64decode(b["uri"].split(",", 1)[1])
        offsets.append(len(blob))
        blob += data + b"\0" * (-len(data) % 4)
    for v in doc["bufferViews"]:
        v["byteOffset"] = v.get("byteOffset", 0) + offsets[v["buffer"]]
        v["buffer"] = 0
    doc["buffers"] = [{"byteLength": len(blob)}]
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    chunks = struct.pack("<I4s", len(js), b"JSON") + js + struct.pack("<I4s", len(blob), b"BIN\0") + blob
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


# ---- frame target inputs: the byte layout read by check_frame() in targets.cpp ----------
def num(v):
    return b"\0" + struct.pack("<f", v)  # mode 0: raw float bits


def vec(x, y, z):
    return num(x) + num(y) + num(z)


def flag(b):
    return b"\1" if b else b"\0"


def frame_input(units=None, scale=1.0, translation=True, ik_weight=1.0, ik_target=(1.0, 4.0, -1.0),
                look_weight=1.0, look_target=(0.0, 5.0, -4.0), yaw=80.0, pitch=60.0, dt=1 / 60,
                root_position=None, ik_smooth=0.0, frames=1):
    out = flag(units is not None) + (num(units) if units is not None else b"")
    out += num(scale) + flag(translation) + flag(True)
    out += num(ik_weight) + num(ik_smooth) + vec(*ik_target) + vec(0, 0, 0) + b"\0" + flag(False)
    out += num(look_weight) + num(0.0) + vec(*look_target) + flag(False) + num(yaw) + num(pitch) + flag(False)
    out += bytes([frames - 1])
    for f in range(frames):
        for s in range(15):
            out += flag(False)
            if s == 0:
                out += flag(root_position is not None) + (vec(*root_position) if root_position else b"")
        out += flag(False) + flag(False) + num(dt) + num(f * dt)
    return out


# ---- keyframe_sequence target inputs: hand-written KeyframeSequence documents ---------------
def cframe(x=0.0, y=0.0, z=0.0, angle_deg=0.0):
    """A CoordinateFrame property: a translation and a rotation about Y."""
    import math
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    r = [c, 0, s, 0, 1, 0, -s, 0, c]
    cells = "".join(f"<{k}>{v:.9g}</{k}>" for k, v in zip(["X", "Y", "Z"], [x, y, z]))
    cells += "".join(f"<R{i // 3}{i % 3}>{v:.9g}</R{i // 3}{i % 3}>" for i, v in enumerate(r))
    return f'<CoordinateFrame name="CFrame">{cells}</CoordinateFrame>'


def pose(name, cf, children="", weight=1, style=0, direction=0):
    return (f'<Item class="Pose"><Properties>{cf}<token name="EasingDirection">{direction}</token>'
            f'<token name="EasingStyle">{style}</token><string name="Name">{name}</string>'
            f'<float name="Weight">{weight}</float></Properties>{children}</Item>')


def keyframe(time, poses, name="Keyframe", markers=()):
    items = "".join(f'<Item class="KeyframeMarker"><Properties><string name="Name">{n}</string>'
                    f'<string name="Value">{v}</string></Properties></Item>' for n, v in markers)
    return (f'<Item class="Keyframe"><Properties><string name="Name">{name}</string>'
            f'<float name="Time">{time:.9g}</float></Properties>{items}{poses}</Item>')


def sequence(keyframes, name="fuzz", loop="false", priority=2):
    return (f'<roblox version="4"><Item class="KeyframeSequence"><Properties><bool name="Loop">{loop}</bool>'
            f'<string name="Name">{name}</string><token name="Priority">{priority}</token></Properties>'
            + "".join(keyframes) + "</Item></roblox>\n")


def arm_keyframe(time, angle, style=0, direction=0, name="Keyframe", markers=(), arm_weight=1):
    """HumanoidRootPart > LowerTorso > UpperTorso > RightUpperArm, the arm swung by `angle`."""
    arm = pose("RightUpperArm", cframe(angle_deg=angle), weight=arm_weight, style=style, direction=direction)
    upper = pose("UpperTorso", cframe(0.0, 0.1 * angle / 90, 0.0, angle / 3), arm, style=style, direction=direction)
    lower = pose("LowerTorso", cframe(), upper, style=style, direction=direction)
    return keyframe(time, pose("HumanoidRootPart", cframe(), lower), name, markers)


def extra_controls(ground=0, limits=((0, False, 90.0), (1, True, 0.0), (2, False, 30.0)), colliders=2):
    """The second stream of check_frame() (add_extra_controls), reversed: the harness reads it
    from the input's end. A limited right-arm IK (FABRIK; limit: part index, hinge?, cone
    degrees), feet on ground shape `ground` (0 plane, 1 box, 2 height field), a tail spring on
    the right arm with `colliders` colliders alternating sphere and capsule."""
    out = flag(True) + flag(False) + flag(False) + vec(0.5, 3.5, -1.5) + bytes([2])
    out += flag(False) + flag(False) + flag(False) + flag(False) + bytes([len(limits)])
    for part, hinge, cone in limits:
        out += bytes([part]) + flag(hinge) + flag(False) + num(-60.0) + num(10.0 if hinge else 45.0) + num(cone)
    out += flag(True) + bytes([ground])
    if ground == 0:
        out += vec(0.0, 0.2, 0.0) + vec(0.1, 1.0, 0.0)
    elif ground == 1:
        out += vec(0.3, -0.4, 0.0) + vec(4.0, 1.0, 4.0) + num(0.98) + num(0.0) + num(0.2) + num(0.0)
    else:
        out += vec(-2.0, 0.0, -2.0) + num(1.0) + bytes([1, 1]) + b"".join(num(h) for h in [0.0, 0.2, 0.1, 0.4, 0.3, 0.0, 0.5, 0.1, 0.2])
    out += flag(False) + flag(True) + num(0.1) + flag(False) + flag(False) + flag(False) + flag(False)
    out += flag(True) + flag(True) + flag(False) + flag(False) + flag(False) + flag(True) + flag(False)
    out += flag(True) + bytes([0]) + flag(False) + flag(False) + num(60.0) + num(4.0) + vec(0.0, -30.0, 0.0)
    out += bytes([colliders])
    for i in range(colliders):
        out += flag(i % 2 == 1) + bytes([2]) + vec(0.6, 0.0, 0.0)
        if i % 2 == 1:
            out += vec(0.6, -1.0, 0.0)
        out += num(0.4)
    return out[::-1]


FLT_MAX = 3.4028234663852886e38


def seeds():
    for name in ["r15_block_rig_normalized.json", "r6_block_rig.json"]:
        write("corpus/joints_json" if "block" in name else "corpus/rig_json", name, (DATA / "roblox" / name).read_bytes())
    for p in sorted((DATA / "roblox").glob("*.joints.json")):
        write("corpus/joints_json", p.name, p.read_bytes())
    write("corpus/rig_json", "tailed_r15.rig.json", (ROOT / "examples" / "tailed_r15.rig.json").read_bytes())
    write("corpus/pose_json", "wave.pose.json", (ROOT / "examples" / "wave.pose.json").read_bytes())
    for name in ["basic.scene.json", "reach_and_look.scene.json"]:
        write("corpus/scene_json", name, (ROOT / "examples" / name).read_bytes())
    for name in ["ccdik_DummyR6.rbxmx", "ccdik_Dummy.rbxmx"]:
        write("corpus/rbxmx", name, (DATA / "roblox" / name).read_bytes())
    for p in sorted((DATA / "bvh").glob("*.bvh")):
        write("corpus/bvh", p.stem + "_3frames.bvh", bvh_head(p, 3))
    doc = json.loads((DATA / "gltf" / "SimpleSkin.gltf").read_text())
    write("corpus/gltf", "SimpleSkin.gltf", (DATA / "gltf" / "SimpleSkin.gltf").read_bytes())
    write("corpus/gltf", "SimpleSkin.glb", glb_from_gltf(doc))
    # The CLI's wave (examples/clips/wave.rbxmx) cut to its first two Keyframes.
    wave = (ROOT / "examples" / "clips" / "wave.rbxmx").read_text()
    cut = wave.index('<Item class="Keyframe"', wave.index('<Item class="Keyframe"', wave.index('<Item class="Keyframe"') + 1) + 1)
    write("corpus/keyframe_sequence", "wave_2keyframes.rbxmx", wave[:cut] + "</Item>\n</roblox>\n")
    write("corpus/keyframe_sequence", "easing_styles.rbxmx", sequence(
        [arm_keyframe(0.0, 0.0, style=3, direction=2), arm_keyframe(0.5, 60.0, style=2, direction=1),
         arm_keyframe(1.0, 90.0, style=4, direction=0), arm_keyframe(1.5, 30.0, style=5, direction=2)],
        loop="true", priority=1))
    write("corpus/keyframe_sequence", "markers_steps_weights.rbxmx", sequence(
        [arm_keyframe(0.4, 45.0, style=1, name="Lift", markers=[("Footstep", "Left"), ("Sound", "whoosh")]),
         arm_keyframe(0.0, 0.0, style=1),
         arm_keyframe(0.8, 90.0, style=1, arm_weight=0, markers=[("Footstep", "Right")])], priority=1000))
    write("corpus/frame", "typical.bin", frame_input())
    write("corpus/frame", "walking_three_frames.bin", frame_input(root_position=(0.3, 0.1, -2.0), frames=3, ik_smooth=0.1))
    for ground, name in [(0, "plane"), (1, "box"), (2, "heightfield")]:
        write("corpus/frame", f"limits_feet_{name}_spring.bin",
              frame_input(root_position=(0.3, 0.1, -2.0), frames=3) + extra_controls(ground=ground, colliders=ground + 1))


def regressions():
    # 1. Deep JSON nesting overflowed the stack (87,552 levels, 175 KB, crashed a Release build).
    deep = '{"_":' + "[" * 87552 + "]" * 87552 + ',"a":1,"b":2}'
    for target in ["rig_json", "pose_json", "scene_json", "joints_json"]:
        write("regression/" + target, "deep_nesting_87552.json", deep)
    write("regression/gltf", "deep_nesting_87552.gltf", deep)
    # A key holding an escaped line break was echoed into a two-line message (long local run).
    write("regression/rig_json", "key_with_line_break.json",
          '{"format": "asterune.rig/1", "name": "x", "root": "A", "parts": '
          '[{"name": "A", "size": [1, 1, 1], "placem\\nt": 1}], "joints": []}')
    # A number holding line breaks was echoed into a multi-line message (long local run).
    r6 = (DATA / "roblox" / "ccdik_DummyR6.rbxmx").read_text()
    i = r6.index("<X>") + 3
    j = r6.index("</X>", i)
    write("regression/rbxmx", "number_with_line_breaks.rbxmx", r6[:i] + r6[i:j] + "\n\n27" + r6[j:])
    # 2. Nested <Item> in .rbxmx overflowed the stack through recursion (about 9,000 levels).
    write("regression/rbxmx", "nested_items_20000.rbxmx",
          '<roblox version="4">' + '<Item class="Model">' * 20000 + "</Item>" * 20000 + "</roblox>")
    # 3. glTF accessor arithmetic wrapped around.
    doc = json.loads((DATA / "gltf" / "SimpleSkin.gltf").read_text())
    output = doc["animations"][0]["samplers"][0]["output"]
    for name, field, value in [("output_count_2pow62_plus1", "count", 2**62 + 1),
                               ("output_count_2pow64_minus1", "count", 2**64 - 1),
                               ("output_byteoffset_near_2pow64", "byteOffset", 2**64 - 16)]:
        d = json.loads(json.dumps(doc))
        d["accessors"][output][field] = value
        write("regression/gltf", name + ".gltf", json.dumps(d, indent=1))
    d = json.loads(json.dumps(doc))
    d["bufferViews"][d["accessors"][output]["bufferView"]]["byteOffset"] = 2**64 - 8
    write("regression/gltf", "view_byteoffset_near_2pow64.gltf", json.dumps(d, indent=1))
    # 4. BVH numbers past float range became inf at the cast (and misleading later errors).
    small = ("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
             " JOINT Chest\n {\n  OFFSET {chest}\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
             "  End Site\n  {\n   OFFSET {site}\n  }\n }\n}\nMOTION\nFrames: 2\nFrame Time: {time}\n"
             "{x} 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n")
    def bvh(chest="0 1 0", site="0 1 0", time="0.0333333", x="0"):
        return small.replace("{chest}", chest).replace("{site}", site).replace("{time}", time).replace("{x}", x)
    write("regression/bvh", "offset_1e39.bvh", bvh(chest="1e39 0 0"))
    write("regression/bvh", "end_site_1e39.bvh", bvh(site="0 1e39 0"))
    write("regression/bvh", "frame_time_1e39.bvh", bvh(time="1e39"))
    write("regression/bvh", "frame_time_1e30.bvh", bvh(time="1e30"))
    write("regression/bvh", "position_channel_1e39.bvh", bvh(x="1e39"))
    # 5. A frame count drove allocation with no data behind it (166 bytes -> 395 MB).
    write("regression/bvh", "frames_1e8_no_channels.bvh",
          "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 0\n JOINT Chest\n {\n  OFFSET 0 1 0\n  End Site\n"
          "  {\n   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 100000000\nFrame Time: 0.0333333\n")
    # 6. A retarget scale or units near FLT_MAX overflowed the root travel (NaN pose, report ok).
    write("regression/scene_json", "retarget_scale_flt_max.json", json.dumps(
        {"format": "asterune.scene/1", "rig": "builtin:r15",
         "animation": {"clip": "clip.bvh", "retarget": {"scale": FLT_MAX}}}))
    write("regression/scene_json", "retarget_units_flt_max.json", json.dumps(
        {"format": "asterune.scene/1", "rig": "builtin:r15",
         "animation": {"clip": "clip.bvh", "retarget": {"units": FLT_MAX}}}))
    write("regression/frame", "retarget_scale_flt_max.bin", frame_input(scale=FLT_MAX, root_position=(5.0, 0.0, -7.0)))
    write("regression/frame", "retarget_units_flt_max.bin", frame_input(units=FLT_MAX, root_position=(5.0, 0.0, -7.0)))
    write("regression/frame", "retarget_huge_root_position.bin", frame_input(root_position=(FLT_MAX, -FLT_MAX, 1e38)))
    # 7. The IK residual was inf for targets beyond ~1.8e19 (glm::length overflowed).
    write("regression/frame", "ik_target_2e19.bin", frame_input(ik_target=(2e19, 0.0, 0.0)))
    write("regression/frame", "ik_target_flt_max.bin", frame_input(ik_target=(FLT_MAX, -FLT_MAX, FLT_MAX)))
    write("regression/frame", "look_target_flt_max_dt_inf.bin",
          frame_input(look_target=(FLT_MAX, FLT_MAX, -FLT_MAX), dt=float("inf"), ik_smooth=0.5, frames=2))
    # 8. 20,000 nested Items around a KeyframeSequence overflowed the stack through recursion
    # (the reader is iterative now, rule RG5; tests/formats/keyframe_sequence_fidelity_test.cpp also
    # nests Poses 20,000 deep, too large a file to keep here).
    write("regression/keyframe_sequence", "nested_items_20000.rbxmx",
          '<roblox version="4">' + '<Item class="Model">' * 20000 + sequence([arm_keyframe(0.0, 10.0)])[18:-10]
          + "</Item>" * 20000 + "</roblox>")
    # 10. A feet control's sole error was inf for a finite sole far from its target (glm::length
    # overflowed; fuzz_frame, 4 min): the input as the fuzzer found it (its second stream builds the feet).
    write("regression/frame", "feet_sole_error_overflow.bin", bytes.fromhex(
        "00000000803f0101000000803f000000fffc000000803f000000804000000080bf000000000000000000000000000000"
        "0000000000803f00000000000000000000000000a04000000080c000000000a042000000704200020001009a99993e00"
        "cdcccc3d00000000c00000000000000000000000005d000000008988883c000000000000010073737373737373737373"
        "7373737373737373737373737373737373737373737373737373737373737373737373737373737373739a99993e00cd"
        "cccc3d00000000c000000000000000000000000000000000008988883c008988883c0001009a99993e00cdcccc3d0000"
        "0000c0000000000d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d000000"
        "00000000002f000000008988883c008988083d3ecccccd00000000000000000000003f19999a00000000c00000000000"
        "000000000000000000000000890000000001009a9999000000000001009a9999beff343636c2ffff00c0000000000000"
        "000000003dcccccd0000000000003e4ccccd000000000000000141f00000004234000000c27000000000000200000000"
        "004120000000c27000000000010142b40000004234000000c270000000000000030000000002bfc00000004060000000"
        "3f00000000000001"))
    # 11. A smoothed IK target near -FLT_MAX met a new target of the other sign: target - smoothed
    # overflowed and a zero response times inf made it NaN (fuzz_frame, 6 more min).
    write("regression/frame", "smoothed_target_overflow.bin", bytes.fromhex(
        "00000000803f010000000001000000a9803f00004c6566744c6f77657241726d000000020000803f0000008040000080"
        "005252525252525252525252525252525252525252525252525252525252525252525252525252525252525252525252"
        "5252525252525252525252525252525252525252525252000042700088000000000100883c008988883c0001009a9999"
        "3e9a99993e000080bf0a000000e8000000000073737300007300000001010080bf000000000000000000000000400001"))
    # 9. CLI: a scene whose rig is a device read until allocation failed.
    write("regression/scene_json", "rig_dev_zero.json", json.dumps({"format": "asterune.scene/1", "rig": "/dev/zero"}))


# ---- CurveAnimation inputs (rule F8), read by the keyframe_sequence target too ------------------
def float_curve(keys, version=2, times_word=1):
    """ValuesAndTimes of (time s, value, interpolation, left, right) keys, base64."""
    import base64
    import struct
    out = struct.pack("<II", version, len(keys))
    for t, v, interp, left, right in keys:
        out += struct.pack("<BBfff", interp, 3, v, left, right)
    out += struct.pack("<II", times_word, len(keys))
    out += b"".join(struct.pack("<I", round(t * 2400)) for t, *_ in keys)
    return base64.b64encode(out).decode()


def curve_item(cls, name, curves, order=None):
    token = f'<token name="RotationOrder">{order}</token>' if order is not None else ""
    items = "".join(f'<Item class="FloatCurve"><Properties><string name="Name">{axis}</string>'
                    f'<BinaryString name="ValuesAndTimes">{c}</BinaryString></Properties></Item>'
                    for axis, c in zip("XYZ", curves))
    return f'<Item class="{cls}"><Properties><string name="Name">{name}</string>{token}</Properties>{items}</Item>'


def curve_folder(name, children="", swing=1.0, order=0):
    pos = [float_curve([(0.0, 0.0, 2, 0.0, 0.5), (0.5, 0.1 * swing, 1, 0.0, 0.0), (1.0, 0.0, 0, 0.0, 0.0)])] * 3
    rot = [float_curve([(0.0, 0.0, 2, 0.0, swing), (0.5, swing, 2, -1.0, 2.0), (1.0, 0.2, 2, 0.0, 0.0)]),
           float_curve([(0.25, -0.3 * swing, 2, 0.0, 0.0)]), float_curve([])]
    return (f'<Item class="Folder"><Properties><string name="Name">{name}</string></Properties>'
            + curve_item("Vector3Curve", "Position", pos) + curve_item("EulerRotationCurve", "Rotation", rot, order)
            + children + "</Item>")


def curve_animation(folders, loop="true", priority=1):
    return (f'<roblox version="4"><Item class="CurveAnimation"><Properties><string name="Name">fuzz</string>'
            f'<bool name="Loop">{loop}</bool><token name="Priority">{priority}</token></Properties>'
            f'<Item class="Folder"><Properties><string name="Name">HumanoidRootPart</string></Properties>'
            + folders + "</Item></Item></roblox>\n")


def curve_inputs():
    arm = curve_folder("RightUpperArm", swing=1.2, order=3)
    write("corpus/keyframe_sequence", "curve_animation_arm.rbxmx",
          curve_animation(curve_folder("LowerTorso", curve_folder("UpperTorso", arm, swing=0.3, order=4), swing=0.1)))
    # Folders 6,000 deep: the reader walks them with an explicit stack (rule RG5).
    write("regression/keyframe_sequence", "curve_animation_nested_folders_6000.rbxmx",
          curve_animation('<Item class="Folder"><Properties><string name="Name">P</string></Properties>' * 6000
                          + "</Item>" * 6000))


if __name__ == "__main__":
    seeds()
    regressions()
    curve_inputs()
