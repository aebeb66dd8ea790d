import type { FileSystemPort } from '../ports/file-system.port.js';

/** A FileSystemPort layered on another (journaling, notifying): every read goes straight through; the layer defines the writes. */
export abstract class ReadThroughFileSystem implements Pick<FileSystemPort, 'stat' | 'readDirectory' | 'directoryVersion' | 'scanTree' | 'openFile' | 'lockFile' | 'ownerNames'> {
  constructor(protected readonly inner: FileSystemPort) {}

  stat: FileSystemPort['stat'] = (path, options) => this.inner.stat(path, options);
  readDirectory: FileSystemPort['readDirectory'] = (path, options) => this.inner.readDirectory(path, options);
  directoryVersion: FileSystemPort['directoryVersion'] = (path) => this.inner.directoryVersion(path);
  scanTree: FileSystemPort['scanTree'] = (path, options) => this.inner.scanTree(path, options);
  openFile: FileSystemPort['openFile'] = (path) => this.inner.openFile(path);
  lockFile: FileSystemPort['lockFile'] = (path) => this.inner.lockFile(path);
  ownerNames: FileSystemPort['ownerNames'] = (uid, gid) => this.inner.ownerNames(uid, gid);
}
