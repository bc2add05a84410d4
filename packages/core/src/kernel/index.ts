export { createVectorMatrix, kernelSupport } from './create-vector-matrix.js';
export type {
  KernelBackend,
  KernelMetric,
  KernelSupport,
  TopKOptions,
  TopKResult,
  VectorMatrix,
  VectorMatrixOptions,
} from './vector-kernel.js';
