/**
 * Typed arrays carved out of one `ArrayBuffer`, zero-filled: one allocation instead of many.
 * After a solve has dropped large arrays, each allocation costs several microseconds (fresh
 * memory is zeroed and faulted in page by page), which is most of what an `imfs` call after one
 * event does; one buffer per group of arrays keeps that cost down. Internal.
 *
 * Sizes are counted in elements; the buffer holds the 8-byte arrays first, then the 4-byte
 * ones, then the bytes, so every view is aligned.
 */
export class Arena {
  private readonly buffer: ArrayBuffer;
  private f64At: number;
  private i32At: number;
  private u8At: number;

  constructor(f64: number, i32: number, u8: number) {
    this.buffer = new ArrayBuffer(8 * f64 + 4 * i32 + u8);
    this.f64At = 0;
    this.i32At = 8 * f64;
    this.u8At = 8 * f64 + 4 * i32;
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
