import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngramError, InvalidInputError } from '../errors/engram-error.js';
import { createVectorMatrix, kernelSupport } from './create-vector-matrix.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createVectorMatrix backend choice', () => {
  it('uses WASM SIMD on Node 20', () => {
    expect(kernelSupport()).toEqual({ wasmSimd: true });
    expect(createVectorMatrix(8).backend).toBe('wasm-simd');
    expect(createVectorMatrix(8, { backend: 'wasm' }).backend).toBe('wasm-simd');
    expect(createVectorMatrix(8, { backend: 'js' }).backend).toBe('js');
  });

  it.each([
    { label: 'without WebAssembly', stub: undefined },
    { label: 'without SIMD', stub: { validate: () => false } },
  ])('falls back to JS $label, and forcing wasm throws', ({ stub }) => {
    vi.stubGlobal('WebAssembly', stub);
    expect(kernelSupport()).toEqual({ wasmSimd: false });
    const matrix = createVectorMatrix(3);
    expect(matrix.backend).toBe('js');
    matrix.append(Float32Array.of(1, 2, 3));
    expect(Array.from(matrix.topK(Float32Array.of(1, 2, 3), 1).rows)).toEqual([0]);
    let caught: unknown;
    try {
      createVectorMatrix(3, { backend: 'wasm' });
    } catch (error) {
      caught = error;
    }
    expect(EngramError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/SIMD/);
  });

  it('rejects an unknown backend', () => {
    expect(() => createVectorMatrix(3, { backend: 'gpu' as 'js' })).toThrow(InvalidInputError);
  });
});
