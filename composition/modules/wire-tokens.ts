import { token } from '../tokens.js';
import type { KoaWire } from '../../adapters/http/koa-wire.js';

/** The wire: what wire-module.ts binds. */
export const WIRE_TOKENS = {
  KoaWire: token<KoaWire>('KoaWire'),
};
