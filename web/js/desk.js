// The engine and the computer players compiled to WebAssembly (crates/wasm, `pacw.wasm` beside index.html), opened
// in a worker: one JSON request in, one JSON reply out (crates/wasm/src/abi.rs). worker.js keeps the games in one;
// thinker.js makes the computer's decisions in another.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/// Opens a desk of its own: resolves with `call(request)`, which answers `{ ok }` or `{ error, status }`.
export async function openDesk() {
  const imports = { pacw: { now_ms: () => performance.now() } };
  const url = new URL('../pacw.wasm', import.meta.url);
  const { instance } = await WebAssembly.instantiateStreaming(fetch(url), imports);
  const e = instance.exports;
  return (request) => {
    const bytes = encoder.encode(JSON.stringify(request));
    const ptr = e.alloc(bytes.length);
    new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
    const len = e.call(ptr, bytes.length);
    e.dealloc(ptr, bytes.length);
    return JSON.parse(decoder.decode(new Uint8Array(e.memory.buffer, e.reply_ptr(), len)));
  };
}
