// The person's API use cases over the composed services (photos on disk, account and agent deletion).
import fs from 'node:fs';
import type { PersonApiServices } from '@screen-service/person-api';
import { ServiceError } from '@screen-service/service-core';
import { MAX_PHOTO_BYTES, PHOTO_TYPES } from './photos/photo-store.js';
import type { Services } from './services.js';

export function personServices(svc: Services): PersonApiServices {
  return {
    accounts: {
      signUp: (input) => svc.accounts.signUp(input),
      signIn: (input) => svc.accounts.signIn(input),
      refresh: (token) => svc.accounts.refresh(token),
      signOut: (user) => svc.accounts.signOut(user),
      verifyAccess: (token) => svc.accounts.verifyAccess(token),
      async me(user) {
        const u = await svc.store.users.findById(user.userId);
        if (!u) throw new ServiceError('UNAUTHORIZED', 'This account no longer exists.');
        return { id: u.id, email: u.email, created_at: new Date(u.createdAt).toISOString() };
      },
      async deleteAccount(user, password) {
        const files = (await svc.store.photos.listByUser(user.userId)).map((p) => p.file);
        await svc.accounts.deleteAccount(user, password);
        await svc.photos.remove(files);
      },
    },
    agents: {
      list: (u) => svc.agents.list(u),
      get: (u, a) => svc.agents.get(u, a),
      create: (u, i) => svc.agents.create(u, i),
      mintCode: (u, a) => svc.agents.mintCode(u, a),
      update: (u, a, i) => svc.agents.update(u, a, i),
      reorder: (u, ids) => svc.agents.reorder(u, ids),
      connections: (u) => svc.agents.connections(u),
      removeConnection: (u, c) => svc.agents.removeConnection(u, c),
      async delete(userId, agentId) {
        await svc.agents.get(userId, agentId);
        const files = (await svc.store.photos.listByUser(userId)).filter((p) => p.agentId === agentId);
        await svc.agents.delete(userId, agentId);
        await svc.photos.remove(files.map((p) => p.file));
      },
    },
    threads: svc.threads,
    photos: {
      maxBytes: MAX_PHOTO_BYTES,
      async upload(userId, agentId, { contentType, bytes }) {
        const type = contentType.split(';')[0]!.trim().toLowerCase();
        if (!PHOTO_TYPES[type]) {
          throw new ServiceError(
            'INVALID_INPUT',
            `Send the photo as ${Object.keys(PHOTO_TYPES).join(', ')}.`,
            {
              field: 'content-type',
            },
          );
        }
        if (!bytes || bytes.length === 0) {
          throw new ServiceError(
            'INVALID_INPUT',
            `The body must be the image bytes, up to ${MAX_PHOTO_BYTES} bytes.`,
            {
              field: 'body',
            },
          );
        }
        await svc.agents.get(userId, agentId);
        const file = await svc.photos.save(Buffer.from(bytes), type);
        const photo = await svc.threads.addPhoto(userId, agentId, {
          file,
          contentType: type,
          bytes: bytes.length,
        });
        return { id: photo.id, url: svc.photos.links([photo])[0]! };
      },
      async open(photoId, exp, sig) {
        if (exp === undefined || sig === undefined || !svc.photos.verify(photoId, exp, sig)) return null;
        const photo = await svc.store.photos.get(photoId);
        if (!photo) return null;
        return {
          contentType: photo.contentType,
          bytes: photo.bytes,
          stream: () => fs.createReadStream(svc.photos.pathOf(photo.file)),
        };
      },
    },
    oauth: svc.oauth,
    notifier: svc.notifier,
  };
}
