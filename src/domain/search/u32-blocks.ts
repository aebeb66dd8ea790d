/** Values per block (as a power of two): 65,536, 256 KiB (128 KiB while narrow). */
const BLOCK_BITS = 16;
const BLOCK_VALUES = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK_VALUES - 1;
/** The largest value, which a narrow block keeps as its own largest (a path table's mark of a removed id). */
const TOP = 0xffffffff;
const NARROW_TOP = 0xffff;

type Block = Uint16Array | Uint32Array;

/**
 * A growing array of 32-bit unsigned values in blocks that are never copied once full (the first
 * doubles from 1,024 up to a block, so a small table stays small). An array grown by copying whole
 * leaves each old copy freed inside malloc's heap, which a process keeps as resident memory: at a
 * million files, twice the final size. When `narrow`, a block holds 16-bit values until a value it
 * cannot hold comes (65,535 or more, the largest aside): a path table's folder numbers, which a tree of
 * fewer than 65,535 folders never widens (2 MB less at a million files).
 */
export class U32Blocks {
  private readonly blocks: Block[];

  constructor(private readonly narrow = false) {
    this.blocks = [this.newBlock(1024)];
  }

  /** The bytes its blocks take. */
  get bytes(): number {
    let total = 0;
    for (const block of this.blocks) total += block.byteLength;
    return total;
  }

  get(index: number): number {
    const block = this.blocks[index >> BLOCK_BITS]!;
    const value = block[index & IN_BLOCK]!;
    return value === NARROW_TOP && block.BYTES_PER_ELEMENT === 2 ? TOP : value;
  }

  /** Sets a value, making room up to `index` (values never set read 0). */
  set(index: number, value: number): void {
    const at = index >> BLOCK_BITS;
    if (at === 0 && index >= this.blocks[0]!.length) this.growFirst(Math.max(this.blocks[0]!.length * 2, index + 1));
    else if (at > 0) {
      this.growFirst(BLOCK_VALUES);
      while (this.blocks.length <= at) this.blocks.push(this.newBlock(BLOCK_VALUES));
    }
    let block = this.blocks[at]!;
    if (block.BYTES_PER_ELEMENT === 2) {
      if (value === TOP) value = NARROW_TOP;
      else if (value >= NARROW_TOP) block = this.widen(at);
    }
    block[index & IN_BLOCK] = value;
  }

  private newBlock(length: number): Block {
    return this.narrow ? new Uint16Array(length) : new Uint32Array(length);
  }

  /** The block at `at` as 32-bit values (its largest narrow value read as the largest). */
  private widen(at: number): Uint32Array {
    const narrow = this.blocks[at]!;
    const wide = new Uint32Array(narrow.length);
    for (let i = 0; i < narrow.length; i += 1) wide[i] = narrow[i] === NARROW_TOP ? TOP : narrow[i]!;
    this.blocks[at] = wide;
    return wide;
  }

  private growFirst(length: number): void {
    const first = this.blocks[0]!;
    if (first.length >= BLOCK_VALUES) return;
    const larger = first.BYTES_PER_ELEMENT === 2 ? new Uint16Array(Math.min(BLOCK_VALUES, length)) : new Uint32Array(Math.min(BLOCK_VALUES, length));
    larger.set(first);
    this.blocks[0] = larger;
  }
}
