# Plays an `asterune-solve --out FILE.glb` in Blender (its own glTF importer, as a user opens it)
# and compares every part's world position with the run's JSON frames (the CLI's `world`) at
# every frame time (rule F22). Not part of the build: Blender is not one of the packages
# `make deps` installs (docs/cli.md "Which glTF interpolation for which tool").
#   asterune-solve --rig builtin:r15 --clip CLIP --all-frames --format json --out x.glb > x.json
#   blender -b --factory-startup --python scripts/check_glb_blender.py -- x.glb x.json
# Blender's importer turns glTF's +Y up into its +Z up: a glTF point (x, y, z) is (x, -z, y).
# Debian 12's Blender 3.4 fails on any mesh's normals with numpy >= 1.24 ("numpy has no
# attribute 'bool'"); the Flat shading import option (import_shading='FLAT') avoids that code.
import json
import math
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
glb_path, json_path = args[0], args[1]
run = json.load(open(json_path))

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb_path, import_shading='FLAT')
scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base
objects = {o.name: o for o in scene.objects}


def at_time(t):
    frame = t * fps
    whole = math.floor(frame)
    scene.frame_set(int(whole), subframe=frame - whole)


worst, where = 0.0, ""
missing = set()
for f in run["frames"]:
    at_time(f["time"])
    for j in f["joints"]:
        o = objects.get(j["part1"])
        if o is None:
            missing.add(j["part1"])
            continue
        x, y, z = j["world"]["position"]
        p = o.matrix_world.translation
        e = math.dist((p.x, p.y, p.z), (x, -z, y))
        if e > worst:
            worst, where = e, "frame %d %s" % (f["frame"], j["part1"])
print("%s: Blender %s, %d frames at %g fps, largest world position error %.6f studs (%s)%s" %
      (glb_path, bpy.app.version_string, len(run["frames"]), fps, worst, where,
       "; no object for " + ", ".join(sorted(missing)) if missing else ""))
