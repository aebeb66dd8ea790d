/** Values per block (as a power of two): 65,536, 256 KiB. */
const BLOCK_BITS = 16;
const BLOCK_VALUES = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK_VALUES - 1;

/**
 * A growing array of 32-bit unsigned values in blocks that are never copied once full (the first
 * doubles from 1,024 up to a block, so a small table stays small). An array grown by copying whole
 * leaves each old copy freed inside malloc's heap, which a process keeps as resident memory: at a
 * million files, twice the final size.
 */
export class U32Blocks {
  private readonly blocks: Uint32Array[] = [new Uint32Array(1024)];

  get(index: number): number {
    return this.blocks[index >> BLOCK_BITS]![index & IN_BLOCK]!;
  }

  /** Sets a value, making room up to `index` (values never set read 0). */
  set(index: number, value: number): void {
    const block = index >> BLOCK_BITS;
    if (block === 0 && index >= this.blocks[0]!.length) this.growFirst(Math.max(this.blocks[0]!.length * 2, index + 1));
    else if (block > 0) {
      this.growFirst(BLOCK_VALUES);
      while (this.blocks.length <= block) this.blocks.push(new Uint32Array(BLOCK_VALUES));
    }
    this.blocks[block]![index & IN_BLOCK] = value;
  }

  private growFirst(length: number): void {
    const first = this.blocks[0]!;
    if (first.length >= BLOCK_VALUES) return;
    const larger = new Uint32Array(Math.min(BLOCK_VALUES, length));
    larger.set(first);
    this.blocks[0] = larger;
  }
}
