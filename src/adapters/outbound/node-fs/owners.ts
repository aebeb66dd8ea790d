import { readFile } from 'node:fs/promises';

type IdNames = ReadonlyMap<number, string>;

/** uid/gid -> name from /etc/passwd and /etc/group, read once; a missing file or id falls back to the number. */
export class OwnerDirectory {
  private tables?: Promise<{ users: IdNames; groups: IdNames }>;

  async names(uid: number, gid: number): Promise<{ owner: string; group: string }> {
    this.tables ??= Promise.all([readIdFile('/etc/passwd'), readIdFile('/etc/group')]).then(([users, groups]) => ({
      users,
      groups,
    }));
    const { users, groups } = await this.tables;
    return { owner: users.get(uid) ?? String(uid), group: groups.get(gid) ?? String(gid) };
  }
}

/** Both files share the shape `name:password:id:...`; the first name for an id wins. */
async function readIdFile(file: string): Promise<IdNames> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return new Map();
  }
  const names = new Map<number, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const [name, , id] = line.split(':');
    const number = Number(id);
    if (name && id && Number.isInteger(number) && !names.has(number)) names.set(number, name);
  }
  return names;
}
