import { decodeImageFile, encodeImageFile } from '../../../../src/adapters/outbound/journal/image-files.js';

// A folder's before-image keeps each folder's mode, so that an undo can give it back (issue 27).
describe('image files', () => {
  it('keep the mode of every folder and file of a tree', () => {
    const image = {
      entries: [
        { relativePath: '', kind: 'directory' as const, mode: 0o750 },
        { relativePath: 'secret', kind: 'directory' as const, mode: 0o700 },
        { relativePath: 'secret/key', kind: 'file' as const, mode: 0o600, content: new TextEncoder().encode('k') },
        { relativePath: 'shared', kind: 'directory' as const, mode: 0o2770 },
      ],
    };
    expect(decodeImageFile(encodeImageFile(image, { state: 'pending' }).bytes)).toEqual(image);
  });

  it('read an image whose manifest has no modes (a bare manifest, the oldest format) with the modes an entry then got', () => {
    const manifest = [
      { relativePath: '', kind: 'directory' },
      { relativePath: 'a.txt', kind: 'file', offset: 0, length: 1 },
    ];
    expect(decodeImageFile(Buffer.from(`${JSON.stringify(manifest)}\na`))).toEqual({
      entries: [
        { relativePath: '', kind: 'directory', mode: 0o755 },
        { relativePath: 'a.txt', kind: 'file', mode: 0o644, content: new TextEncoder().encode('a') },
      ],
    });
  });
});
