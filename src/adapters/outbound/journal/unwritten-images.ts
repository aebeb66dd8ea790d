import { rmSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BeforeImage } from '../../../domain/ports/change-journal.port.js';
import { encodeImageFile, imageFileLength } from './image-files.js';

interface Unwritten {
  readonly image: BeforeImage | null;
  /** Set once its file is being written. */
  job: Promise<void> | null;
}

/**
 * Image files not written yet (issue 20's bench bar). A begin is durable in the begin log; the
 * image file (its record and before-image) is written after the change, off the call's path, with
 * the record's state at that moment: committed when the change was made, so no commit marker is
 * needed. A file created during a call waits for the file system's journal commits under way (the
 * temp file's fsync), so here none is. Until it is written, the image is served from memory and the
 * record is kept in the index.
 */
export class UnwrittenImages {
  private readonly waiting = new Map<string, Unwritten>();
  /** Writes made after the call that caused them (image files, commit markers), awaited by flush. */
  private readonly background = new Set<Promise<void>>();

  /** `stored(id)`: what the file holds (the record, its state, its owner); null when it is gone. `written(id)`: its file is in place. */
  constructor(
    private readonly records: string,
    private readonly stored: (id: string) => unknown,
    private readonly written: (id: string) => void = () => undefined,
  ) {}

  /** Copied in and out: a caller changing its buffers changes no image. */
  add(id: string, image: BeforeImage | null): void {
    this.waiting.set(id, { image: copyOf(image), job: null });
  }

  /** How many are held here, not written yet. */
  size(): number {
    return this.waiting.size;
  }

  has(id: string): boolean {
    return this.waiting.has(id);
  }

  /** Whether its file is written or being written (a later commit then needs its marker). */
  started(id: string): boolean {
    return this.waiting.get(id)?.job !== null;
  }

  /** The size its file will have if written now (0 when it is not held here, or its record is gone). */
  length(id: string): number {
    const unwritten = this.waiting.get(id);
    if (unwritten === undefined) return 0;
    const stored = this.stored(id);
    return stored === null ? 0 : imageFileLength(unwritten.image, stored);
  }

  /** Its before-image while it is held here; undefined when it is not. */
  image(id: string): BeforeImage | null | undefined {
    const unwritten = this.waiting.get(id);
    return unwritten === undefined ? undefined : copyOf(unwritten.image);
  }

  /** Writes its file now (or joins the write under way); resolves once the file is in place. */
  write(id: string): Promise<void> {
    const unwritten = this.waiting.get(id);
    if (unwritten === undefined) return Promise.resolve();
    unwritten.job ??= this.writeFile(id, unwritten.image).then(
      () => {
        this.waiting.delete(id);
        this.written(id);
      },
      (error: unknown) => {
        // Kept, to be tried again (by a checkpoint, or at close); the begin log still holds it.
        unwritten.job = null;
        throw error;
      },
    );
    return unwritten.job;
  }

  /** Never to be written (aborted, or its record superseded); waits for a write under way. */
  async cancel(id: string): Promise<void> {
    const unwritten = this.waiting.get(id);
    this.waiting.delete(id);
    await unwritten?.job?.catch(() => undefined);
  }

  /** Writes every file still waiting, and waits for every write made after a call. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.waiting.keys()].map((id) => this.write(id)));
    await Promise.allSettled([...this.background]);
  }

  /** A write made after the call; its failure is left for a later write, or the start-up, to settle from the log. */
  later(write: Promise<unknown>): void {
    const tracked: Promise<void> = write.then(
      () => undefined,
      () => undefined,
    );
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  private async writeFile(id: string, image: BeforeImage | null): Promise<void> {
    const stored = this.stored(id);
    if (stored === null) return;
    const { bytes } = encodeImageFile(image, stored);
    // Renamed into place, so no reader (another server refreshing its index) sees it torn.
    const temp = join(this.records, `.${id}.img.tmp`);
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
      await rename(temp, join(this.records, `${id}.img`));
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}

function copyOf(image: BeforeImage | null): BeforeImage | null {
  if (image === null) return null;
  return { entries: image.entries.map((entry) => (entry.content === undefined ? { ...entry } : { ...entry, content: Uint8Array.from(entry.content) })) };
}
