import { crc32 } from 'node:zlib';
import { InvalidInput } from '../../domain/errors.js';

/** One entry as the central directory declares it. */
export interface DeclaredEntry {
  readonly name: string;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
}

/** The four records of the ZIP format this reads, each known by its leading signature. */
const SIGNATURE = {
  endOfCentralDirectory: 0x06054b50,
  centralHeader: 0x02014b50,
  localHeader: 0x04034b50,
  dataDescriptor: 0x08074b50,
} as const;
/** Sizes and offsets this wide mean ZIP64, which no app file near its 8 MiB cap needs. */
const ZIP64 = 0xffffffff;
/** Flag bit 3: CRC and sizes follow the data (a data descriptor) instead of the local header. */
const HAS_DESCRIPTOR = 0x08;
const UTF8_NAME = 0x800;
/**
 * Flag bits that say an entry's data (or the directory it is listed in) is encrypted: bit 0
 * (traditional PKWARE encryption, also set by AES), bit 6 (strong encryption) and bit 13 (a
 * central directory encrypted, the local header's values masked). fflate ignores them all and
 * would inflate whatever bytes follow.
 */
const ENCRYPTION_FLAGS = 0x0001 | 0x0040 | 0x2000;
/** The extra field WinZip's AES encryption adds to both headers of an entry it encrypted. */
const AES_EXTRA_FIELD = 0x9901;
const STORED = 0;

/**
 * Reads the central directory and checks that no entry is encrypted (by its flags or its AES
 * extra field, in either header), that every entry's local header (or its data descriptor)
 * agrees with it on CRC-32 and both sizes, that its data lies inside the archive before the
 * directory, and that no name appears twice. fflate trusts the directory and inflates
 * into a buffer of the declared size, so an entry that lies would otherwise be imported cut short
 * or padded. A lying entry is `InvalidInput` naming it. Structure fflate itself cannot read is
 * left to fflate to refuse.
 */
export function declaredEntries(bytes: Uint8Array): Map<string, DeclaredEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endOfCentralDirectory(view);
  const entries = new Map<string, DeclaredEntry>();
  if (end < 0) return entries;
  const count = view.getUint16(end + 10, true);
  const directoryStart = view.getUint32(end + 16, true);
  let at = directoryStart;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== SIGNATURE.centralHeader)
      throw new InvalidInput("The app file's central directory is damaged");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    const name = nameOf(bytes.subarray(at + 46, at + 46 + nameLength), flags);
    const extraStart = at + 46 + nameLength;
    at = extraStart + extraLength + commentLength;

    const lie = (what: string) => new InvalidInput(`The app file's entry "${name.slice(0, 200)}" ${what}; nothing was imported`);
    // Checked before anything else about the entry: encrypted data would only fail later as a lie.
    const encrypted = () => lie('is encrypted; Porter imports only unencrypted app files');
    if (flags & ENCRYPTION_FLAGS || hasExtraField(view, extraStart, extraLength, AES_EXTRA_FIELD)) throw encrypted();
    if (entries.has(name)) throw lie('appears twice');
    if (compressedSize === ZIP64 || size === ZIP64 || localOffset === ZIP64) throw lie('uses ZIP64, which an app file does not need');
    if (method === STORED && compressedSize !== size) throw lie('is stored uncompressed, yet its two sizes differ');
    if (localOffset + 30 > directoryStart || view.getUint32(localOffset, true) !== SIGNATURE.localHeader)
      throw lie('has no local header where the directory says');
    const local = {
      flags: view.getUint16(localOffset + 6, true),
      crc: view.getUint32(localOffset + 14, true),
      compressedSize: view.getUint32(localOffset + 18, true),
      size: view.getUint32(localOffset + 22, true),
    };
    const localExtraStart = localOffset + 30 + view.getUint16(localOffset + 26, true);
    const localExtraLength = view.getUint16(localOffset + 28, true);
    const dataStart = localExtraStart + localExtraLength;
    if (
      local.flags & ENCRYPTION_FLAGS ||
      hasExtraField(view, localExtraStart, Math.min(localExtraLength, directoryStart - localExtraStart), AES_EXTRA_FIELD)
    )
      throw encrypted();
    if (dataStart + compressedSize > directoryStart) throw lie('declares more data than the archive holds');
    const told = local.flags & HAS_DESCRIPTOR ? descriptorAt(view, dataStart + compressedSize, directoryStart) : local;
    if (!told) throw lie('has no data descriptor where its flags say');
    if (told.crc !== crc) throw lie('has a CRC-32 in its local header that differs from the directory');
    if (told.compressedSize !== compressedSize || told.size !== size)
      throw lie('declares sizes in its local header that differ from the directory');
    entries.set(name, { name, crc, compressedSize, size });
  }
  return entries;
}

/** What an entry inflated to must be exactly what the directory declared: its size and CRC-32. */
export function checkInflated(entry: DeclaredEntry, data: Uint8Array): void {
  const lie = (what: string) => new InvalidInput(`The app file's entry "${entry.name.slice(0, 200)}" ${what}; nothing was imported`);
  if (data.byteLength !== entry.size) throw lie(`inflates to ${data.byteLength} bytes, not the ${entry.size} it declares`);
  if (crc32(data) >>> 0 !== entry.crc) throw lie('does not match its CRC-32');
}

function endOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - 22 - 0xffff); at -= 1) {
    if (view.getUint32(at, true) === SIGNATURE.endOfCentralDirectory) return at;
  }
  return -1;
}

/** Whether the extra-field block at `start` (`length` bytes of id, size, data records) holds a field with this id. */
function hasExtraField(view: DataView, start: number, length: number, id: number): boolean {
  const end = Math.min(start + Math.max(length, 0), view.byteLength);
  for (let at = start; at + 4 <= end; at += 4 + view.getUint16(at + 2, true)) {
    if (view.getUint16(at, true) === id) return true;
  }
  return false;
}

function descriptorAt(view: DataView, at: number, limit: number): { crc: number; compressedSize: number; size: number } | null {
  const signed = at + 4 <= limit && view.getUint32(at, true) === SIGNATURE.dataDescriptor;
  const start = signed ? at + 4 : at;
  if (start + 12 > limit) return null;
  return { crc: view.getUint32(start, true), compressedSize: view.getUint32(start + 4, true), size: view.getUint32(start + 8, true) };
}

const utf8 = new TextDecoder('utf-8');

/** Decoded as fflate decodes it: UTF-8 when flagged, otherwise one character per byte. */
function nameOf(bytes: Uint8Array, flags: number): string {
  if (flags & UTF8_NAME) return utf8.decode(bytes);
  let name = '';
  for (const byte of bytes) name += String.fromCharCode(byte);
  return name;
}
