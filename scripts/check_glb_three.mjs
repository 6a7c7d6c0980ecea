// Plays a reduced `asterune-solve --out FILE.glb` in three.js (GLTFLoader + AnimationMixer, as
// a viewer does) and compares every part's world position with the unreduced run, at every
// frame and at STEPS - 1 points between frames (rule F7). Not part of the build: a one-off
// check with three.js from npm (docs/cli.md "Compact exports").
//   asterune-solve --rig builtin:r15 --clip CLIP --all-frames --format json --out x.glb > x.json
//   cp scripts/check_glb_three.mjs DIR/ && cd DIR && npm install three && node check_glb_three.mjs x.glb x.json [STEPS=8]
// (an ES module finds `three` in the node_modules beside it).
// The reference: the run's JSON frames (each joint's child part world placement), each part's
// local to its parent part slerped/lerped between frames, composed down the hierarchy.
import fs from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const [glbPath, jsonPath, stepsArg] = process.argv.slice(2);
const steps = Number(stepsArg ?? 8);
const run = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
const bytes = fs.readFileSync(glbPath);
const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

new GLTFLoader().parse(data, '', (gltf) => {
  const scene = gltf.scene;
  const clip = gltf.animations[0];
  const interp = new Set(clip.tracks.map((t) => t.createInterpolant().constructor.name));
  const keys = clip.tracks.filter((t) => t.name.endsWith('.position')).reduce((n, t) => n + t.times.length, 0);
  const mixer = new THREE.AnimationMixer(scene);
  // Played once and held at its end, as the run was: a looping action wraps t = duration back
  // to the first frame, which would report the last frame's pose wrong.
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const frames = run.frames;
  const joints = frames[0].joints;
  const rootName = joints[0].part0;
  const rootNode = scene.getObjectByName(rootName);
  rootNode.updateMatrixWorld(true);
  const rootWorld = rootNode.matrixWorld.clone();  // the root part does not move in this run
  const placement = (j) => new THREE.Matrix4().compose(
      new THREE.Vector3(...j.world.position),
      new THREE.Quaternion(j.world.rotation[1], j.world.rotation[2], j.world.rotation[3], j.world.rotation[0]),
      new THREE.Vector3(1, 1, 1));
  // Per frame, each joint's child part local to its parent part.
  const locals = frames.map((f) => f.joints.map((j) => {
    const parent = j.parent >= 0 ? placement(f.joints[j.parent]) : rootWorld;
    const local = parent.clone().invert().multiply(placement(j));
    const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
    local.decompose(p, q, s);
    return { p, q };
  }));
  let worst = 0, samples = 0;
  for (let f = 0; f < frames.length; ++f) {
    for (let k = 0; k < (f + 1 < frames.length ? steps : 1); ++k) {
      const u = k / steps;
      const t = k === 0 ? frames[f].time : frames[f].time + u * (frames[f + 1].time - frames[f].time);
      mixer.setTime(t);
      scene.updateMatrixWorld(true);
      const want = [];
      joints.forEach((j, i) => {
        const a = locals[f][i], b = locals[Math.min(f + 1, frames.length - 1)][i];
        const q = a.q.clone();
        if (q.dot(b.q) < 0) b.q.set(-b.q.x, -b.q.y, -b.q.z, -b.q.w);
        q.slerp(b.q, u);
        const local = new THREE.Matrix4().compose(a.p.clone().lerp(b.p, u), q, new THREE.Vector3(1, 1, 1));
        want[i] = (j.parent >= 0 ? want[j.parent] : rootWorld).clone().multiply(local);
        const got = new THREE.Vector3().setFromMatrixPosition(scene.getObjectByName(j.part1).matrixWorld);
        worst = Math.max(worst, got.distanceTo(new THREE.Vector3().setFromMatrixPosition(want[i])));
      });
      ++samples;
    }
  }
  console.log(`${glbPath}: ${keys} keys (${[...interp].join(', ')}), ${samples} times (${steps} per frame), ` +
              `largest world position error ${worst.toFixed(6)} studs`);
}, (e) => { console.error(e); process.exit(1); });
