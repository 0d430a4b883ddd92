/**
 * The hashing of a file import (import-file.ts): the SHA-256 of the whole file names its run and proves
 * that a file imported again is the one the run read, so every import reads the file once to hash it.
 * The same read keeps the file's first bytes (a CSV header row, which a resumed read needs) and a copy
 * of the hash's state every HASH_BLOCK bytes, so that the bytes a resumed import parses from its place
 * can still be checked against the hash: it goes on from the copy at the place's block, hashing again
 * only the bytes between the block's start and the place (less than a block). A copy costs about 2 KB
 * of native memory: 4,096 of them (a 1 GB file) some 8 MB and 44 ms.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { MAX_RECORD_CHARS } from './csv-records';
import { openFile, type FileOpener } from './file-records';

/** Every this many bytes, the hashing keeps a copy of the hash's state: a resumed read re-reads less than this before its place. */
export const HASH_BLOCK = 256 * 1024;

/** The file's first bytes kept by the hashing: a CSV header row is at most MAX_RECORD_CHARS, with its line break and a BOM. */
const HEAD_BYTES = MAX_RECORD_CHARS + 8;

/** The file as hashed: its hash, its size, its first bytes, and the hash's state at every HASH_BLOCK bytes. */
export interface HashedFile {
  hash: string;
  bytes: number;
  head: Buffer;
  blockStates: Hash[];
}

export async function hashFile(path: string, signal?: AbortSignal): Promise<HashedFile> {
  const hash = createHash('sha256');
  const blockStates: Hash[] = [hash.copy()];
  const head: Buffer[] = [];
  let bytes = 0;
  for await (const read of createReadStream(path, { signal })) {
    let chunk = read as Buffer;
    if (bytes < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - bytes));
    while (chunk.length) {
      const piece = chunk.subarray(0, HASH_BLOCK - (bytes % HASH_BLOCK));
      hash.update(piece);
      bytes += piece.length;
      chunk = chunk.subarray(piece.length);
      if (bytes % HASH_BLOCK === 0) blockStates.push(hash.copy());
    }
  }
  return { hash: hash.digest('hex'), bytes, head: Buffer.concat(head), blockStates };
}

/**
 * The hash of the file's first `byte` bytes, to go on with the bytes read from there: the state the
 * hashing kept at the block `byte` is in, and the bytes from that block's start to `byte`, read again
 * only to be hashed (not parsed).
 */
export async function hashUpTo(byte: number, hashed: HashedFile, path: string, open: FileOpener = openFile): Promise<Hash> {
  const block = Math.floor(byte / HASH_BLOCK);
  const hash = hashed.blockStates[block].copy();
  const start = block * HASH_BLOCK;
  if (byte > start) {
    for await (const chunk of open(path, { start, end: byte - 1 })) hash.update(chunk as Buffer);
  }
  return hash;
}
