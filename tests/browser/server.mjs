// Starts a pacw server for a test on a free port with an empty data directory, and Debian's headless Chromium.

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const screenshots = join(root, 'target', 'browser-screenshots');

/// Runs `pacw serve` on 127.0.0.1:0; resolves with { url, stop }.
export function startServer() {
  const data = mkdtempSync(join(tmpdir(), 'pacw-browser-'));
  const binary = process.env.PACW_BIN || join(root, 'target', 'debug', 'pacw');
  const child = spawn(binary, ['serve', '--addr', '127.0.0.1:0', '--data', data, '--computer-delay-ms', '50'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`pacw serve did not start:\n${out}`)), 20000);
    const onData = (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[0], stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`pacw serve exited with ${code}:\n${out}`)));
  });
}

/// Debian's Chromium, headless, with a fresh profile and no background networking.
export async function launchBrowser() {
  mkdirSync(screenshots, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/// Fails the test on any error the page throws.
export function watchErrors(page, errors) {
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
}

/// One server and one browser for a test file: started before its tests, stopped after them.
/// Returns an object whose `server` and `browser` are set once the tests run.
export function serverAndBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.stop();
  });
  return env;
}
