/** REPO INSTALL path, REPO DELETE name, REPO LIST: parsed and planned, but not offered by this server. */
import { attr, defineCommand, element, needs } from '../definition';

export const repoInstall = defineCommand({
  kind: 'repoInstall',
  syntax: [{ words: ['REPO', ['INSTALL']], parse: (p) => ({ kind: 'repoInstall', path: p.reqString() }) }],
  elements: { 'repo-install': element(['path'], [], (a) => ({ kind: 'repoInstall', path: attr(a, 'path') })) },
  needs: () => needs('admin'),
});

export const repoDelete = defineCommand({
  kind: 'repoDelete',
  syntax: [{ words: ['REPO', ['DELETE']], parse: (p) => ({ kind: 'repoDelete', name: p.reqString() }) }],
  elements: { 'repo-delete': element(['name'], [], (a) => ({ kind: 'repoDelete', name: attr(a, 'name') })) },
  needs: () => needs('admin'),
});

export const repoList = defineCommand({
  kind: 'repoList',
  syntax: [{ words: ['REPO', ['LIST']], parse: () => ({ kind: 'repoList' }) }],
  elements: { 'repo-list': element([], [], () => ({ kind: 'repoList' })) },
  needs: () => needs('admin'),
});
