import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { link, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANGE_ID } from '../../../domain/changes/change-id.js';
import type { UndoInFlight } from '../../../domain/ports/change-journal.port.js';
import { syncPath, writeSynced } from './image-files.js';
import { gone, type Owner } from './journal-owners.js';

/** An undo in flight (claims/<id>): who runs it, and its plan. */
export interface Claim extends Owner {
  readonly undoId: string;
  /** Absent in claims of older versions (taken as false). */
  readonly force?: boolean;
}

/**
 * The undo claims of the disk journal (issue 27), one file per change in `dir`. A claim is written
 * whole and fsync'd under a temp name, then linked into place: link(2) fails if a claim is there, so
 * of two undos (two sessions, two servers on one journal) exactly one claims, and a claim is never
 * torn by a kill. The claims directory is synced before the undo restores anything. A finished
 * undo's claim stays as long as its record (abort and prune remove both): the record says undone,
 * and the claim keeps a server whose index is behind from claiming the change again.
 */
export class UndoClaims {
  constructor(
    private readonly dir: string,
    private readonly owner: Owner,
  ) {}

  claim(id: string, undoId: string, force: boolean): Promise<boolean> {
    return this.place(id, { undoId, force, ...this.owner });
  }

  /** Where `id`'s claim is (the journal's size counts it). */
  file(id: string): string {
    return join(this.dir, id);
  }

  read(id: string): Claim | null {
    return CHANGE_ID.test(id) ? readClaim(join(this.dir, id)) : null;
  }

  async release(id: string): Promise<void> {
    if (CHANGE_ID.test(id)) await rm(join(this.dir, id), { force: true });
  }

  /** Claims of servers that are gone (on this host: a remote server's pid is not ours to judge). */
  dead(): UndoInFlight[] {
    const found: UndoInFlight[] = [];
    for (const id of readdirSync(this.dir)) {
      const claim = CHANGE_ID.test(id) ? readClaim(join(this.dir, id)) : null;
      if (claim !== null && gone(claim, this.owner.instance)) found.push({ id, undoId: claim.undoId, force: claim.force === true });
    }
    return found;
  }

  /**
   * Takes over a dead server's claim: moved aside first (of two servers recovering at once, one
   * moves it), then placed again as this server's. False when it is no longer a dead server's, or
   * a live undo claimed the change in between (that undo then runs as any would).
   */
  async adopt(id: string): Promise<boolean> {
    if (!CHANGE_ID.test(id)) return false;
    const aside = join(this.dir, `.${id}.${this.owner.instance}.adopt`);
    try {
      await rename(join(this.dir, id), aside);
    } catch {
      return false;
    }
    try {
      const claim = readClaim(aside);
      if (claim !== null && gone(claim, this.owner.instance)) return await this.place(id, { ...claim, ...this.owner });
      // Not a dead server's after all: put back as it was.
      await link(aside, join(this.dir, id)).catch(() => undefined);
      return false;
    } finally {
      await rm(aside, { force: true });
    }
  }

  /** Start-up: a temp or moved-aside claim of a server that is gone is litter (never a claim). */
  removeLitter(): void {
    for (const name of readdirSync(this.dir)) {
      const file = join(this.dir, name);
      const litter = name.startsWith('.') && (name.endsWith('.tmp') || name.endsWith('.adopt'));
      if (litter && isDead(readClaim(file), this.owner.instance)) rmSync(file, { force: true });
    }
  }

  private async place(id: string, claim: Claim): Promise<boolean> {
    const temp = join(this.dir, `.${id}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeSynced(temp, Buffer.from(JSON.stringify(claim)), 'wx');
      await link(temp, join(this.dir, id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await rm(temp, { force: true });
    }
    // Durable before the undo restores anything: a crash after that finds the undo in flight.
    await syncPath(this.dir);
    return true;
  }
}

function isDead(claim: Claim | null, instance: string): boolean {
  return claim !== null && gone(claim, instance);
}

/** A claim with its owner, or null (none, or written by an older version that kept no owner: not ours to judge). */
function readClaim(file: string): Claim | null {
  try {
    const claim = JSON.parse(readFileSync(file, 'utf8')) as Partial<Claim>;
    return typeof claim.pid === 'number' && typeof claim.instance === 'string' && typeof claim.undoId === 'string' ? (claim as Claim) : null;
  } catch {
    return null;
  }
}
