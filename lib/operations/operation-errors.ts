/** Errors of the operations layer. */
import { entry } from '../xmldb-error';

export const RUN_ERRORS = {
  /** A `run` file that does not exist, is a folder or lies outside the REST path (spec §10). */
  RUN_NOT_FOUND_X: entry(404, 'Resource "%" not found.'),
} as const;

/** Failed preconditions (RFC 9110 §13, 412) and unsatisfiable ranges (RFC 9110 §14, 416). */
export const CONDITION_ERRORS = {
  /** If-Match of a PUT or DELETE names another version. */
  RESOURCE_CHANGED_X: entry(412, 'Precondition failed: resource "%" has changed.'),
  /** If-Match of a PUT or DELETE, and no resource at the path. */
  RESOURCE_MISSING_X: entry(412, 'Precondition failed: resource "%" does not exist.'),
  /** If-None-Match of a PUT (`*`: the HTTP form of `replace=false`) matches the resource. */
  RESOURCE_EXISTS_X: entry(412, 'Precondition failed: resource "%" exists.'),
  BYTES_NOT_SATISFIABLE_X: entry(416, 'Range not satisfiable: the resource has % bytes.'),
  ITEMS_NOT_SATISFIABLE_X: entry(416, 'Range not satisfiable: the result has % items.'),
} as const;
