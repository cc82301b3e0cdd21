/** Errors of the operations layer. */
import { entry } from '../errors';

export const RUN_ERRORS = {
  /** A `run` file that does not exist, is a folder or lies outside the REST path (spec §10). */
  RUN_NOT_FOUND_X: entry(404, 'Resource "%" not found.'),
} as const;
