// @screen-service/photos: the person's photos, their quota and signed links.
// Every export here is public API.
export { hasImageSignature } from './image-signature.js';
export { type ImageSize, imageSize } from './image-size.js';
export {
  checkPhotoUpload,
  checkUploadKey,
  createPhotos,
  createSignedPhotoLinks,
  MAX_PHOTO_BYTES,
  PHOTO_LINK_TTL_MS,
  PHOTO_QUOTA_BYTES,
  PHOTO_TYPES,
  PHOTO_UPLOAD_RATE,
  type PhotoFiles,
  type PhotoLinks,
  type Photos,
  type PhotosOptions,
} from './photos.js';
