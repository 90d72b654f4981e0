/**
 * Typed arrays carved out of one `ArrayBuffer`, zero-filled: one allocation instead of many.
 * After a solve has dropped large arrays, each allocation costs several microseconds (fresh
 * memory is zeroed and faulted in page by page), which is most of what an `imfs` call after one
 * event does; one buffer per group of arrays keeps that cost down. Internal.
 *
 * Sizes are counted in elements; the buffer holds the 8-byte arrays first, then the 4-byte
 * ones, then the bytes, so every view is aligned.
 *
 * With `scratch`, the arrays come from the scratch pool below instead (work arrays of one
 * `imfs` call); `zeroed = false` then skips the zeroing, for arrays that are written before
 * they are read (they hold whatever an earlier call left).
 */
export class Arena {
  private readonly buffer: ArrayBuffer;
  private f64At: number;
  private i32At: number;
  private u8At: number;

  constructor(f64: number, i32: number, u8: number, scratch = false, zeroed = true) {
    const bytes = 8 * f64 + 4 * i32 + u8;
    let offset = 0;
    if (scratch) {
      ({ buffer: this.buffer, offset } = takeScratch(bytes, zeroed));
    } else {
      this.buffer = new ArrayBuffer(bytes);
    }
    this.f64At = offset;
    this.i32At = offset + 8 * f64;
    this.u8At = offset + 8 * f64 + 4 * i32;
  }

  /** The next `length` doubles. */
  f64(length: number): Float64Array {
    const out = new Float64Array(this.buffer, this.f64At, length);
    this.f64At += 8 * length;
    return out;
  }

  /** The next `length` 32-bit integers. */
  i32(length: number): Int32Array {
    const out = new Int32Array(this.buffer, this.i32At, length);
    this.i32At += 4 * length;
    return out;
  }

  /** The next `length` bytes. */
  u8(length: number): Uint8Array {
    const out = new Uint8Array(this.buffer, this.u8At, length);
    this.u8At += length;
    return out;
  }
}

// The scratch pool: memory for work arrays that live only during one `imfs` call, kept from
// one call to the next. A fresh allocation of the same size costs more than the whole rest of
// a call without a search (the memory is faulted in page by page: about 40 us for the 46 KB a
// search on 1000 x 1000 needs, against a few us to zero it again). Never reachable from a
// result; a block is zeroed when handed out unless its arrays are written before they are read,
// so no call depends on another's data. It holds the
// largest block one call needed (about 100 bytes per row and column), until the next larger
// one replaces it.
let pool = new ArrayBuffer(0);
let poolUsed = 0;

/** Starts a call: every scratch block handed out so far is free again. */
export function resetScratch(): void {
  poolUsed = 0;
}

/** A block of `bytes` from the pool, at an offset that is a multiple of 8; zeroed if asked. */
function takeScratch(bytes: number, zeroed: boolean): { buffer: ArrayBuffer; offset: number } {
  const size = (bytes + 7) & ~7;
  if (poolUsed + size > pool.byteLength) {
    // Blocks already handed out keep the old buffer alive until their call ends.
    pool = new ArrayBuffer(Math.max(2 * pool.byteLength, size, 1 << 16));
    poolUsed = 0;
  }
  const offset = poolUsed;
  poolUsed += size;
  if (zeroed) new Uint8Array(pool, offset, size).fill(0);
  return { buffer: pool, offset };
}
