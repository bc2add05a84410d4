import type { WriteBatchInput } from '@engram/core';

export declare const tenant: string;
export declare const dims: number;
export declare function batchIds(index: number, unitsPerBatch: number): { units: string[]; cue: string; tag: string };
export declare function unitVector(index: number, unit: number): Float32Array;
export declare function ingestBatch(index: number, unitsPerBatch: number): WriteBatchInput;
