// The engine and the computer players compiled to WebAssembly (crates/wasm, `pacw.wasm` beside index.html), opened
// in a worker: one JSON request in, one JSON reply out (crates/wasm/src/abi.rs). worker.js compiles the module once
// and keeps the games in a desk of it; thinker.js, handed the compiled module, makes the computer's decisions in
// another.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/// The module, fetched and compiled (a promise of a WebAssembly.Module, which a worker can hand to another).
export function compile() {
  return WebAssembly.compileStreaming(fetch(new URL('../pacw.wasm', import.meta.url)));
}

/// Opens a desk of its own on the compiled `module`: resolves with `call(request)`, which answers `{ ok }` or
/// `{ error, status }`.
export async function openDesk(module) {
  const imports = { pacw: { now_ms: () => performance.now() } };
  const e = (await WebAssembly.instantiate(await module, imports)).exports;
  return (request) => {
    const bytes = encoder.encode(JSON.stringify(request));
    const ptr = e.alloc(bytes.length);
    new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
    const len = e.call(ptr, bytes.length);
    e.dealloc(ptr, bytes.length);
    return JSON.parse(decoder.decode(new Uint8Array(e.memory.buffer, e.reply_ptr(), len)));
  };
}
