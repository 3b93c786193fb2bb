// Utilities: sleep on the simulated clock, digests/HMAC as signed bytes, base64, formatDate, blobs, CSV, UUIDs.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { formatJavaDate } from './date-format';
import { GasError, GasObject, isDate } from './realm';
import type { Runtime } from './runtime';

export const MAX_SLEEP_MS = 300_000;

/** Java bytes are signed: -128..127. */
export function toSignedBytes(buf: Uint8Array): number[] {
  const out: number[] = new Array(buf.length);
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i] as number;
    out[i] = b > 127 ? b - 256 : b;
  }
  return out;
}

/** Accepts a string (in a charset) or a byte array (signed or unsigned) and returns bytes. */
export function toBuffer(value: unknown, charset?: string): Buffer {
  if (typeof value === 'string') return Buffer.from(value, charset === 'US_ASCII' ? 'latin1' : 'utf8');
  if (Array.isArray(value)) return Buffer.from(value.map((b) => Number(b) & 0xff));
  if (value instanceof BlobImpl) return Buffer.from(value._bytes);
  if (value instanceof Uint8Array) return Buffer.from(value);
  return Buffer.from(String(value), 'utf8');
}

export class BlobImpl extends GasObject {
  protected readonly _gasType = 'Blob';
  constructor(
    public _bytes: Buffer,
    private _contentType: string | null,
    private _name: string | null,
  ) {
    super();
  }
  getBytes(): number[] {
    return toSignedBytes(this._bytes);
  }
  getDataAsString(charset?: string): string {
    return this._bytes.toString(charset === 'US_ASCII' ? 'latin1' : 'utf8');
  }
  setDataFromString(string: string, charset?: string): BlobImpl {
    this._bytes = toBuffer(String(string), charset);
    return this;
  }
  setBytes(data: number[]): BlobImpl {
    this._bytes = toBuffer(data);
    return this;
  }
  getContentType(): string | null {
    return this._contentType;
  }
  setContentType(contentType: string): BlobImpl {
    this._contentType = String(contentType);
    return this;
  }
  getName(): string | null {
    return this._name;
  }
  setName(name: string): BlobImpl {
    this._name = String(name);
    return this;
  }
  copyBlob(): BlobImpl {
    return new BlobImpl(Buffer.from(this._bytes), this._contentType, this._name);
  }
  getAs(contentType: string): BlobImpl {
    return new BlobImpl(Buffer.from(this._bytes), String(contentType), this._name);
  }
  isGoogleType(): boolean {
    return false;
  }
}

const DIGESTS: Record<string, string> = {
  MD2: 'md2',
  MD5: 'md5',
  SHA_1: 'sha1',
  SHA_256: 'sha256',
  SHA_384: 'sha384',
  SHA_512: 'sha512',
};
const MACS: Record<string, string> = {
  HMAC_MD5: 'md5',
  HMAC_SHA_1: 'sha1',
  HMAC_SHA_256: 'sha256',
  HMAC_SHA_384: 'sha384',
  HMAC_SHA_512: 'sha512',
};

export class UtilitiesService extends GasObject {
  protected readonly _gasType = 'Utilities';
  readonly DigestAlgorithm = {
    MD2: 'MD2',
    MD5: 'MD5',
    SHA_1: 'SHA_1',
    SHA_256: 'SHA_256',
    SHA_384: 'SHA_384',
    SHA_512: 'SHA_512',
  };
  readonly MacAlgorithm = {
    HMAC_MD5: 'HMAC_MD5',
    HMAC_SHA_1: 'HMAC_SHA_1',
    HMAC_SHA_256: 'HMAC_SHA_256',
    HMAC_SHA_384: 'HMAC_SHA_384',
    HMAC_SHA_512: 'HMAC_SHA_512',
  };
  readonly Charset = { US_ASCII: 'US_ASCII', UTF_8: 'UTF_8' };
  constructor(private readonly _rt: Runtime) {
    super();
  }
  /** Advances the simulated clock; no real waiting (§5: the only way to pause). */
  sleep(milliseconds: number): void {
    const ms = Number(milliseconds);
    if (!Number.isFinite(ms) || ms < 0) throw new GasError('Invalid argument: milliseconds');
    if (ms > MAX_SLEEP_MS) throw new GasError('Argument too large: milliseconds');
    this._rt.spend(ms);
  }
  computeDigest(algorithm: string, value: string | number[], charset?: string): number[] {
    const alg = DIGESTS[String(algorithm)];
    if (!alg) throw new GasError('Invalid argument: algorithm');
    return toSignedBytes(createHash(alg).update(toBuffer(value, charset)).digest());
  }
  computeHmacSignature(
    algorithm: string,
    value: string | number[],
    key: string | number[],
    charset?: string,
  ): number[] {
    const alg = MACS[String(algorithm)];
    if (!alg) throw new GasError('Invalid argument: algorithm');
    return toSignedBytes(createHmac(alg, toBuffer(key, charset)).update(toBuffer(value, charset)).digest());
  }
  computeHmacSha256Signature(value: string | number[], key: string | number[], charset?: string): number[] {
    return this.computeHmacSignature('HMAC_SHA_256', value, key, charset);
  }
  base64Encode(data: string | number[], charset?: string): string {
    return toBuffer(data, charset).toString('base64');
  }
  base64EncodeWebSafe(data: string | number[], charset?: string): string {
    return toBuffer(data, charset).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  }
  base64Decode(encoded: string, _charset?: string): number[] {
    const s = String(encoded).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw new GasError('Could not decode string.');
    return toSignedBytes(Buffer.from(s, 'base64'));
  }
  base64DecodeWebSafe(encoded: string, _charset?: string): number[] {
    const s = String(encoded).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9_-]*={0,2}$/.test(s)) throw new GasError('Could not decode string.');
    return toSignedBytes(Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  }
  formatDate(date: Date, timeZone: string, format: string): string {
    if (!isDate(date))
      throw new GasError(
        "The parameters (String,String,String) don't match the method signature for Utilities.formatDate.",
      );
    try {
      return formatJavaDate(date.getTime(), String(timeZone), String(format));
    } catch (e) {
      throw new GasError(`Invalid argument: ${(e as Error).message}`);
    }
  }
  formatString(template: string, ...args: unknown[]): string {
    let i = 0;
    return String(template).replace(
      /%(-?\d*)(?:\.(\d+))?([sdif%])/g,
      (_m, _w: string, prec: string | undefined, conv: string) => {
        if (conv === '%') return '%';
        const v = args[i++];
        if (conv === 'd' || conv === 'i') return String(Math.trunc(Number(v)));
        if (conv === 'f') return Number(v).toFixed(prec === undefined ? 6 : Number(prec));
        return String(v);
      },
    );
  }
  getUuid(): string {
    return randomUUID();
  }
  newBlob(data: string | number[], contentType?: string, name?: string): BlobImpl {
    return new BlobImpl(toBuffer(data), contentType ?? null, name ?? null);
  }
  parseCsv(csv: string, delimiter = ','): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    const s = String(csv);
    for (let i = 0; i < s.length; i++) {
      const ch = s[i] as string;
      if (quoted) {
        if (ch === '"' && s[i + 1] === '"') {
          field += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else field += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === delimiter) {
        row.push(field);
        field = '';
      } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && s[i + 1] === '\n') i++;
        row.push(field);
        rows.push(row);
        row = [];
        field = '';
      } else field += ch;
    }
    if (field !== '' || row.length) {
      row.push(field);
      rows.push(row);
    }
    return rows;
  }
}
