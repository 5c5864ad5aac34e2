// The editor's scenario model (web/js/scenario-model.js) without a browser: every shipped battle, read from the
// server's view and written back as TOML, is the same battle to the engine (`pacw show --json` of both agrees; the
// editor writes each side's units together, so a battle that interleaves them gets its units in another order).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, binary } from './server.mjs';
import { fromView, toToml } from '../../web/js/scenario-model.js';

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
