/** The namespace of the REST interface's own elements (spec §3, §7): listings, POST bodies. */
export const REST_NS = 'http://basex.org/rest';
