interface Signature {
  readonly mimeType: string;
  readonly matches: (header: Uint8Array) => boolean;
}

const startsWith = (header: Uint8Array, bytes: readonly number[], offset = 0) =>
  header.length >= offset + bytes.length && bytes.every((byte, i) => header[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: readonly Signature[] = [
  { mimeType: 'image/png', matches: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mimeType: 'image/jpeg', matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { mimeType: 'image/gif', matches: (h) => startsWith(h, ascii('GIF87a')) || startsWith(h, ascii('GIF89a')) },
  { mimeType: 'image/webp', matches: (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8) },
];

/**
 * The image MIME type of a file, by its magic bytes (content decides: a PNG called
 * `photo.dat` is image/png). SVG is text with no magic number, so its extension decides.
 */
export function sniffImage(header: Uint8Array, fileName: string): string | null {
  const signature = SIGNATURES.find((candidate) => candidate.matches(header));
  if (signature) return signature.mimeType;
  return fileName.toLowerCase().endsWith('.svg') ? 'image/svg+xml' : null;
}
