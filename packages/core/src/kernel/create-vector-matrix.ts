import { InvalidInputError } from '../errors/engram-error.js';
import { JsVectorMatrix } from './js-matrix.js';
import type { KernelSupport, VectorMatrix, VectorMatrixOptions } from './vector-kernel.js';
import { WasmVectorMatrix } from './wasm-matrix.js';
import { probeWasmSimd } from './wasm-module.js';

/** What the running engine offers the kernel; `wasmSimd` false means `auto` falls back to JS. */
export function kernelSupport(): KernelSupport {
  return { wasmSimd: probeWasmSimd() };
}

/**
 * Creates an empty {@link VectorMatrix} of `dims` dimensions. `backend: 'auto'` uses WASM SIMD
 * where available (one WASM instance and memory per matrix; the module is compiled once per
 * process), else the plain-JS implementation; `'wasm'` throws an `EngramError` where unsupported.
 */
export function createVectorMatrix(dims: number, options: VectorMatrixOptions = {}): VectorMatrix {
  const backend = options.backend ?? 'auto';
  if (backend !== 'auto' && backend !== 'wasm' && backend !== 'js') {
    throw new InvalidInputError({
      message: `invalid options.backend: expected 'auto', 'wasm' or 'js', got ${String(backend)}`,
      path: 'options.backend',
    });
  }
  const useWasm = backend === 'wasm' || (backend === 'auto' && probeWasmSimd());
  return useWasm
    ? new WasmVectorMatrix(dims, options.initialCapacity)
    : new JsVectorMatrix(dims, options.initialCapacity);
}
