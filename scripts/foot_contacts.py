#!/usr/bin/env python3
"""Foot contacts of a solved run, from world positions only (not from the graph's markers).

  scripts/foot_contacts.py FRAMES.json [--list]

FRAMES.json is `asterune-solve SCENE --all-frames --format json`. A foot (the parts LeftFoot and
RightFoot) is planted while its horizontal speed is below 0.3 of the LowerTorso's, for 3 frames
or more, with gaps of up to 3 frames closed; a touchdown starts a plant; a contact's slide is
the farthest the foot gets, horizontally, from where it touched down. Prints the touchdowns in
order (L/R), how often the same foot lands twice in a row, and the mean slide per contact in the
walk (0-1.5 s), the ramp (1.5-4.5 s, with its largest) and the run (from 4.5 s) of
examples/locomotion.scene.json. --list prints every contact.
"""
import json
import math
import sys


def part_position(frame, part):
    for joint in frame["joints"]:
        if joint["part1"] == part:
            return joint["world"]["position"]
    raise SystemExit(f"no part {part} in frame {frame['frame']}")


def horizontal(a, b):
    return math.hypot(b[0] - a[0], b[2] - a[2])


def plants(frames, foot, dt):
    planted = [False]
    for i in range(1, len(frames)):
        torso = horizontal(part_position(frames[i - 1], "LowerTorso"), part_position(frames[i], "LowerTorso")) / dt
        speed = horizontal(part_position(frames[i - 1], foot), part_position(frames[i], foot)) / dt
        planted.append(speed < 0.3 * torso)
    runs, i = [], 0
    while i < len(planted):
        if not planted[i]:
            i += 1
            continue
        j = i
        while j < len(planted) and planted[j]:
            j += 1
        if runs and i - runs[-1][1] <= 3:
            runs[-1][1] = j
        else:
            runs.append([i, j])
        i = j
    return [r for r in runs if r[1] - r[0] >= 3]


def contacts(frames):
    dt = frames[1]["time"] - frames[0]["time"]
    out = []
    for foot, side in (("LeftFoot", "L"), ("RightFoot", "R")):
        for a, b in plants(frames, foot, dt):
            start = part_position(frames[a], foot)
            slide = max(horizontal(start, part_position(frames[k], foot)) for k in range(a, b))
            out.append((frames[a]["time"], side, slide))
    return sorted(out)


def main():
    frames = json.load(open(sys.argv[1]))["frames"]
    found = contacts(frames)
    if "--list" in sys.argv:
        for t, side, slide in found:
            print(f"  {t:.3f} {side} {slide:.3f}")
    order = "".join(side for _, side, _ in found)
    repeats = sum(1 for k in range(1, len(order)) if order[k] == order[k - 1])

    def span(lo, hi):
        v = [s for t, _, s in found if lo <= t < hi]
        return (sum(v) / len(v), max(v), len(v)) if v else (float("nan"), float("nan"), 0)

    walk, ramp, run = span(0.0, 1.5), span(1.5, 4.5), span(4.5, math.inf)
    print(f"{len(found)} touchdowns {order}, {repeats} repeated; slide per contact: walk {walk[0]:.3f} / "
          f"ramp {ramp[0]:.3f} (max {ramp[1]:.3f}) / run {run[0]:.3f}; {ramp[2]} contacts in the ramp")


if __name__ == "__main__":
    main()
