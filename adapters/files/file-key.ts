/**
 * The only keys a file-blob adapter takes: ids Porter minted (`fil_` and URL-safe characters), so
 * a key can never name a path outside the folder or another object in the bucket.
 */
const FILE_KEY = /^fil_[0-9A-Za-z_-]{10,64}$/;

export function assertFileKey(key: string): string {
  if (!FILE_KEY.test(key)) throw new Error(`not a file key: ${JSON.stringify(key).slice(0, 80)}`);
  return key;
}

export function isFileKey(key: string): boolean {
  return FILE_KEY.test(key);
}
