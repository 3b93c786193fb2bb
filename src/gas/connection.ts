// Connecting: checks the key with GET /user/me, keeps it in USER properties only, and returns whose
// key it is (never the key itself). A refused key or URL changes nothing stored.

import { TableClient } from '../api/client';
import { CONNECT_TIME_LIMIT_MS, connectFailure, normalizeBaseUrl } from '../api/connection';
import type { UserProfile } from '../api/types';
import { SyncError } from '../core/errors';
import type { ConnectionInfo, SaveConnectionInput } from '../shared/types';
import { keySafety } from './key-safety';
import { markLiveKeyGone } from './live-switch';
import { clientFor, Deadline } from './operation';
import { paceFor } from './service-pace';
import { clearConnection, loadConnection, saveConnectionRecord } from './stores';
import { createUrlFetchPort } from './url-fetch-port';

/** Whose key it is, as the sidebar shows it (never the key). */
function infoFrom(me: UserProfile, baseUrl: string, prefix: string): ConnectionInfo {
  return {
    baseUrl,
    prefix,
    userId: me.userId,
    firstName: me.firstName,
    lastName: me.lastName,
    email: me.emailId,
    accountId: me.accountId,
    orgId: me.orgId,
    checkedAt: new Date().toISOString(),
  };
}

/** The key's profile, within the connect time limit; no answer from the address says so plainly. */
function profileOf(client: TableClient, baseUrl: string): UserProfile {
  try {
    return client.me();
  } catch (error) {
    throw connectFailure(error, baseUrl);
  }
}

export function saveConnection(input: SaveConnectionInput): ConnectionInfo {
  if (!input || typeof input !== 'object')
    throw new SyncError('CONFIG', 'Enter the service address and your API key.');
  const apiKey = typeof input.apiKey === 'string' ? input.apiKey.trim() : '';
  if (apiKey === '')
    throw new SyncError('CONFIG', 'Enter your API key: create one in your profile on the service.');
  if (/\s/.test(apiKey))
    throw new SyncError('CONFIG', 'The API key contains spaces: copy it again from your profile.');
  const normalized = normalizeBaseUrl(typeof input.baseUrl === 'string' ? input.baseUrl : '');
  const prefix = input.prefix ?? normalized.prefix;
  const connection = prefix
    ? { baseUrl: normalized.baseUrl, apiKey, prefix }
    : { baseUrl: normalized.baseUrl, apiKey };
  const deadline = new Deadline(CONNECT_TIME_LIMIT_MS);
  // Paced like every other client. The service counts the check in the key's windows, so the pace
  // kept for the address counts it too, once the key is kept: a refused key changes nothing stored.
  const { onChange: keepPace, ...pace } = paceFor(normalized.baseUrl);
  const client = new TableClient(createUrlFetchPort(), connection, {
    deadline: () => deadline.left(),
    pace,
  });
  const info = infoFrom(
    profileOf(client, normalized.baseUrl),
    normalized.baseUrl,
    client.prefix ?? prefix ?? '/api/public',
  );
  saveConnectionRecord({ info, apiKey });
  keepPace?.();
  return { ...info, keySafetyWarning: keySafety().warning };
}

/** The stored connection; with `refresh`, re-reads the profile so a key that stopped working says so. */
export function getConnection(options?: { refresh?: boolean }): ConnectionInfo | null {
  const stored = loadConnection();
  if (!stored) return null;
  if (!options?.refresh) return stored.info;
  // The address answered before: a failure now keeps the client's own words (a network problem).
  const client = clientFor(stored, createUrlFetchPort(), new Deadline(CONNECT_TIME_LIMIT_MS));
  const info = infoFrom(client.me(), stored.info.baseUrl, stored.info.prefix);
  saveConnectionRecord({ info, apiKey: stored.apiKey });
  return info;
}

export function disconnect(): { connected: false } {
  // Live sync of this spreadsheet's sheets goes on with the next sender's key (their own triggers).
  const userId = loadConnection()?.info.userId;
  if (userId !== undefined) markLiveKeyGone(userId);
  clearConnection();
  return { connected: false };
}
