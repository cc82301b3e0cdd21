/** JOBS LIST, JOBS RESULT id, JOBS STOP id: parsed and planned, but not offered by this server. */
import { attr, defineCommand, element, needs } from '../definition';

export const jobsList = defineCommand({
  kind: 'jobsList',
  syntax: [{ words: ['JOBS', ['LIST']], parse: () => ({ kind: 'jobsList' }) }],
  elements: { 'jobs-list': element([], [], () => ({ kind: 'jobsList' })) },
  needs: () => needs('admin'),
});

export const jobsResult = defineCommand({
  kind: 'jobsResult',
  syntax: [{ words: ['JOBS', ['RESULT']], parse: (p) => ({ kind: 'jobsResult', id: p.reqName() }) }],
  elements: { 'jobs-result': element(['id'], [], (a) => ({ kind: 'jobsResult', id: attr(a, 'id') })) },
  needs: () => needs('admin'),
});

export const jobsStop = defineCommand({
  kind: 'jobsStop',
  syntax: [{ words: ['JOBS', ['STOP']], parse: (p) => ({ kind: 'jobsStop', id: p.reqName() }) }],
  elements: { 'jobs-stop': element(['id'], [], (a) => ({ kind: 'jobsStop', id: attr(a, 'id') })) },
  needs: () => needs('admin'),
});
