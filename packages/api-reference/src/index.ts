export { apiReference, type ApiReferenceOptions } from './reference.js';
