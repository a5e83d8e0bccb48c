// Photos: upload raw image bytes for an answer; read one back through a signed link.
import { pipeline } from 'node:stream/promises';
import { defineRoute } from '../route.js';
import * as s from '../schemas.js';

export const photoRoutes = [
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/photos',
    summary: 'Upload a photo (raw image body) to attach to an answer',
    auth: 'user',
    raw: { request: 'image/*' },
    headers: {
      'idempotency-key': {
        description:
          'chosen by the app for this photo (1 to 128 letters, digits or . _ : ~ -), unique per person: the same upload sent again with the same key answers the first photo (same id) and stores nothing (an upload resent after a lost response, ADR 0287)',
        pattern: '^[A-Za-z0-9._:~-]{1,128}$',
        conflict: 'the idempotency key was already used for another photo (other bytes or another thread)',
      },
    },
    response: s.photoCreated,
    status: 201,
    handler: ({ services, user, params, req }) =>
      services.photos.upload(user.userId, params.agentId, {
        contentType: req.headers['content-type'],
        bytes: Buffer.isBuffer(req.body) ? req.body : undefined,
        // ADR 0287: a phone resending an upload whose answer it never heard gets the first photo back.
        idempotencyKey: req.headers['idempotency-key'],
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/photos/:photoId',
    summary: 'A photo, through a signed link valid 1 hour',
    auth: 'signed',
    query: s.photoQuery,
    raw: { response: 'image/*' },
    handler: async ({ services, params, query, res }) => {
      const photo = await services.photos.open(params.photoId, query.exp, query.sig);
      res.setHeader('content-type', photo.contentType);
      res.setHeader('content-length', String(photo.bytes));
      res.setHeader('cache-control', 'private, max-age=3600');
      // Shown as an image only: never sniffed into a page, never run as one if opened on its own.
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('content-disposition', `inline; filename="photo.${photo.contentType.split('/')[1]}"`);
      res.setHeader('content-security-policy', "default-src 'none'; sandbox; frame-ancestors 'none'");
      await pipeline(photo.body, res);
      return undefined;
    },
  }),
];
