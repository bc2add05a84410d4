import type { Unit } from '@engram/core';
import type { Database, Key, RangeOptions, Transaction } from 'lmdb';
import { keyPart, type Databases, type RowRecord } from './layout.js';

/**
 * One consistent read view of the store: every read of a query goes through the same LMDB read
 * transaction, so a query never sees half of a batch another process is committing.
 */
export class Snapshot {
  private readonly transaction: Transaction;
  private readonly scratch: Uint8Array;
  private readonly scratchVector: Float32Array;

  constructor(
    readonly databases: Databases,
    dims: number | undefined,
  ) {
    // The shared read transaction may date from earlier in this event-loop turn; renew it so the
    // query sees every commit made so far, by this process or another.
    databases.root.resetReadTxn();
    this.transaction = databases.root.useReadTransaction();
    this.scratchVector = new Float32Array(dims ?? 0);
    this.scratch = new Uint8Array(this.scratchVector.buffer);
  }

  /** Ends the read transaction. */
  done(): void {
    this.transaction.done();
  }

  /** A value by key. */
  get<V>(database: Database<V, Key>, key: Key): V | undefined {
    return database.get(key, { transaction: this.transaction });
  }

  /** A binary value by key (a copy). */
  binary(database: Database<Buffer, Key>, key: Key): Buffer | undefined {
    // lmdb's typings omit getBinary's options argument; the implementation takes the transaction.
    const reader = database as unknown as { getBinary(key: Key, options: { transaction: Transaction }): Buffer | undefined };
    return reader.getBinary(key, { transaction: this.transaction });
  }

  /** Entries of a key range. */
  range<V>(database: Database<V, Key>, options: RangeOptions): Iterable<{ key: Key; value: V }> {
    return database.getRange({ ...options, transaction: this.transaction });
  }

  /** Keys of a key range. */
  keys(database: Database<unknown, Key>, options: RangeOptions): Iterable<Key> {
    return database.getKeys({ ...options, transaction: this.transaction });
  }

  /** The store's generation as of this snapshot. */
  generation(): number {
    return (this.get(this.databases.meta, 'generation') as number | undefined) ?? 0;
  }

  /** A row record. */
  row(row: number): RowRecord | undefined {
    return this.get(this.databases.rows, row);
  }

  /** A unit with its vector (fresh objects: callers may hand them out). */
  unit(id: string): Unit | undefined {
    const stored = this.get(this.databases.units, id);
    if (stored === undefined) return undefined;
    const unit = stored.unit as Unit;
    if (stored.hasVector) {
      const vector = this.vectorCopy(unit.scope.userId, stored.row);
      if (vector !== undefined) unit.vector = vector as Float32Array<ArrayBuffer>;
    }
    return unit;
  }

  /** The stored vector of a row, as a new array. */
  vectorCopy(userId: string, row: number): Float32Array<ArrayBuffer> | undefined {
    const bytes = this.binary(this.databases.vectors, [keyPart(userId), row]);
    if (bytes === undefined) return undefined;
    const vector = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(vector.buffer).set(bytes);
    return vector;
  }

  /** Stored vector bytes as floats in a reused array (valid until the next call): for scans. */
  vectorView(bytes: Uint8Array): Float32Array {
    if (bytes.byteLength !== this.scratch.byteLength) return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    this.scratch.set(bytes);
    return this.scratchVector;
  }
}
