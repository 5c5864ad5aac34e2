// The editor's scenario model (web/js/scenario-model.js) without a browser: every shipped battle, read from the
// server's view and written back as TOML, is the same battle to the engine (`pacw show --json` of both agrees; the
// editor writes each side's units together, so a battle that interleaves them gets its units in another order); a
// battle of a variant's own terrain makes it too, in the variant's letters.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, binary } from './server.mjs';
import { fromView, terrainKinds, toToml } from '../../web/js/scenario-model.js';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'examples');

let server;
before(async () => { server = await startServer(); });
after(async () => { await server.remove(); });

const show = (file) => JSON.parse(execFileSync(binary, ['show', '--json', file], { encoding: 'utf8' }));

test('every shipped battle makes the round trip view → model → TOML and is the same battle to the engine', async () => {
  const info = await (await fetch(`${server.url}api/info`)).json();
  const shipped = await (await fetch(`${server.url}api/scenarios`)).json();
  assert.ok(shipped.length >= 12, 'the shipped battles');
  const dir = mkdtempSync(join(tmpdir(), 'pacw-model-'));
  for (const s of shipped) {
    const file = join(dir, s.file);
    writeFileSync(file, toToml(fromView(s, info.options)));
    const [original, written] = [show(join('scenarios', s.file)), show(file)];
    for (const key of ['name', 'turns', 'points_per_destroyed', 'map', 'sides', 'objectives', 'attacker', 'options']) {
      assert.deepEqual(written[key], original[key], `${s.file}: ${key}`);
    }
    const bySideAndPlace = (units) => [...units].sort((a, b) => `${a.side}${a.at}`.localeCompare(`${b.side}${b.at}`));
    assert.deepEqual(bySideAndPlace(written.units), bySideAndPlace(original.units), `${s.file}: units`);
  }
});

test('a battle of a variant\'s own terrain is written in its letters; a kind the rules lack is written ? and refused', async () => {
  const variant = readFileSync(join(examples, 'entrenchments.toml'), 'utf8');
  const battle = readFileSync(join(examples, 'entrenched.toml'), 'utf8');
  const info = await (await fetch(`${server.url}api/info`)).json();
  const reply = await (await fetch(`${server.url}api/scenarios/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: battle, file: 'entrenched.toml', variant_text: variant, variant_file: 'entrenchments.toml' }),
  })).json();
  assert.equal(reply.ok, true, reply.message);
  const model = { ...fromView(reply.scenario, info.options), variant: 'entrenchments.toml' };
  const dir = mkdtempSync(join(tmpdir(), 'pacw-model-'));
  writeFileSync(join(dir, 'entrenchments.toml'), variant);
  writeFileSync(join(dir, 'entrenched.toml'), toToml(model, terrainKinds(reply.terrains)));
  const [original, written] = [show(join(examples, 'entrenched.toml')), show(join(dir, 'entrenched.toml'))];
  assert.deepEqual(written.map, original.map);
  // Under the standard kinds the entrenchments have no letter: never painted over, but marked for the engine.
  writeFileSync(join(dir, 'bare.toml'), toToml(model));
  assert.throws(() => execFileSync(binary, ['check', join(dir, 'bare.toml')], { encoding: 'utf8', stdio: 'pipe' }),
    (e) => /unknown terrain character '\?' at c3/.test(`${e.stdout}${e.stderr}`));
});
