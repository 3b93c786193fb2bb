// DeveloperMetadata on a spreadsheet or sheet (moved out of spreadsheet.ts unchanged).
import { GasObject } from './realm';

let nextMetadataId = 1000;

/** DeveloperMetadata on a spreadsheet or sheet. */
export class DeveloperMetadataImpl extends GasObject {
  protected readonly _gasType = 'DeveloperMetadata';
  constructor(
    private readonly _owner: { _metadata: DeveloperMetadataImpl[] },
    private readonly _id: number,
    private _key: string,
    private _value: string | null,
    private readonly _visibility: string,
  ) {
    super();
  }
  getId(): number {
    return this._id;
  }
  getKey(): string {
    return this._key;
  }
  setKey(key: string): DeveloperMetadataImpl {
    this._key = String(key);
    return this;
  }
  getValue(): string | null {
    return this._value;
  }
  setValue(value: string): DeveloperMetadataImpl {
    this._value = value === null || value === undefined ? null : String(value);
    return this;
  }
  getVisibility(): string {
    return this._visibility;
  }
  remove(): void {
    const list = this._owner._metadata;
    const i = list.indexOf(this);
    if (i >= 0) list.splice(i, 1);
  }
}

/** New metadata with the next id (ids are unique across the simulator, as Google's are per file). */
export function newDeveloperMetadata(
  owner: { _metadata: DeveloperMetadataImpl[] },
  key: string,
  value: string | null,
  visibility: string,
): DeveloperMetadataImpl {
  return new DeveloperMetadataImpl(owner, nextMetadataId++, key, value, visibility);
}
