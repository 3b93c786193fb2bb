// Connecting from the sidebar: a refused connection comes back as an answer naming the field to fix
// (the service address or the API key), so the sidebar can put the person's cursor there.
import { asSyncError, type SyncError } from '../core/errors';
import type { ConnectionInfo, ConnectionRefusal, SaveConnectionInput } from '../shared/types';
import { saveConnection } from './connection';

/** Which field a refusal is about: the key's own checks and the service's answers about the key, else the address. */
function fieldToFix(input: SaveConnectionInput, failure: SyncError): ConnectionRefusal['field'] {
  switch (failure.code) {
    case 'AUTH':
    case 'FORBIDDEN':
      return 'apiKey';
    case 'CONFIG': {
      // saveConnection checks the key before the address: an empty key or one with spaces is the key's fault.
      const key = typeof input?.apiKey === 'string' ? input.apiKey.trim() : '';
      return key === '' || /\s/.test(key) ? 'apiKey' : 'baseUrl';
    }
    case 'NETWORK':
    case 'NOT_FOUND':
    case 'BAD_RESPONSE':
    case 'TIME':
      return 'baseUrl';
    default:
      return null;
  }
}

/**
 * saveConnection for the sidebar: the same checks and storage, but a refusal is answered with its
 * message and the field it is about (null when neither: the service's trouble, a busy quota…).
 * Nothing is stored when refused.
 */
export function connectFromSidebar(input: SaveConnectionInput): ConnectionInfo | ConnectionRefusal {
  try {
    return saveConnection(input);
  } catch (error) {
    const failure = asSyncError(error);
    return { connected: false, field: fieldToFix(input, failure), message: failure.message };
  }
}
