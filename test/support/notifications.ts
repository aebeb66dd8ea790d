import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export interface ResourceUpdate {
  readonly uri: string;
  /** Date.now() when the client got it. */
  readonly at: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every notifications/resources/updated the client gets, with when it came. */
export function updatesOf(client: Client): ResourceUpdate[] {
  const updates: ResourceUpdate[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push({ uri: notification.params.uri, at: Date.now() });
  });
  return updates;
}

/** Resolves once `updates` holds more than `count` entries, or fails after 1 second (the promise of issue 18). */
export async function nextUpdate(updates: readonly { uri: string }[], count: number): Promise<string> {
  const deadline = Date.now() + 1000;
  while (updates.length <= count) {
    if (Date.now() > deadline) throw new Error('no notifications/resources/updated within 1 s');
    await sleep(10);
  }
  return updates[count].uri;
}
