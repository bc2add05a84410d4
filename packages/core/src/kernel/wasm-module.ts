import { EngramError } from '../errors/engram-error.js';
import { kernelWasmBase64 } from './generated/kernel-wasm.js';

// The shared tsconfig has no DOM lib, so the few WebAssembly members used here are typed locally
// and read from globalThis (which also lets tests take WebAssembly away).

/** The linear memory of a kernel instance. */
export interface KernelMemory {
  /** Current backing buffer; replaced (the old one detached) by every `grow`. */
  readonly buffer: ArrayBuffer;
  /** Grows by `pages` 64 KiB pages; returns the old size in pages; throws RangeError when it cannot. */
  grow(pages: number): number;
}

/** Exports of assembly/kernel.ts. */
export interface KernelExports {
  /** The instance's memory. */
  readonly memory: KernelMemory;
  /** First byte after static data. */
  heapBase(): number;
  /** Fused scan + bounded heap; see assembly/kernel.ts. */
  topK(
    matrix: number,
    norms: number,
    rows: number,
    stride: number,
    query: number,
    queryNorm: number,
    mask: number,
    k: number,
    outRows: number,
    outScores: number,
  ): number;
  /** Scores every row into `scores`, then selects; see assembly/kernel.ts. */
  topKTwoPass(
    matrix: number,
    norms: number,
    rows: number,
    stride: number,
    query: number,
    queryNorm: number,
    mask: number,
    k: number,
    outRows: number,
    outScores: number,
    scores: number,
  ): number;
}

interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

function webAssembly(): WebAssemblyApi | undefined {
  return (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
}

/** `(module (func (result v128) i32.const 0 i32x4.splat))`: valid only where SIMD is supported. */
const simdProbe = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x11, 0x0b, // code: i32.const 0, i32x4.splat, end
]);

/** True when this engine runs WebAssembly with fixed-width SIMD. Not cached: it costs microseconds. */
export function probeWasmSimd(): boolean {
  const api = webAssembly();
  if (api === undefined || typeof api.validate !== 'function') return false;
  try {
    return api.validate(simdProbe);
  } catch {
    return false;
  }
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

let compiled: object | undefined;

/**
 * Instantiates the kernel with a fresh memory. The module is compiled once per process, on first
 * use, synchronously (it is ~2 KB, well under the engines' limit for synchronous compilation).
 */
export function instantiateKernel(): KernelExports {
  const api = webAssembly();
  if (api === undefined || !probeWasmSimd()) {
    throw new EngramError(
      "VectorMatrix: backend 'wasm' needs WebAssembly with SIMD, which this JavaScript engine lacks; use backend 'auto' or 'js'",
    );
  }
  try {
    compiled ??= new api.Module(decodeBase64(kernelWasmBase64));
    return new api.Instance(compiled, {}).exports as KernelExports;
  } catch (error) {
    throw new EngramError('VectorMatrix: could not instantiate the WASM kernel', { cause: error });
  }
}
