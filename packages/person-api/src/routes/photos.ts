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
    response: s.photoCreated,
    status: 201,
    handler: ({ services, user, params, req }) =>
      services.photos.upload(user.userId, params.agentId, {
        contentType: req.headers['content-type'],
        bytes: Buffer.isBuffer(req.body) ? req.body : undefined,
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
