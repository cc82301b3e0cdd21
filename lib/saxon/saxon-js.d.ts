/**
 * Minimal typings for saxon-js 2.7.0 (the package ships none). Only what the project uses is
 * typed; internal entry points are reached through `internals`/`getPlatform` and typed where used.
 */
declare module 'saxon-js' {
  interface XPathOptions {
    params?: Record<string, unknown>;
    namespaceContext?: Record<string, string>;
    staticBaseURI?: string;
    resultForm?: 'default' | 'array' | 'iterator' | 'xdm';
    [option: string]: unknown;
  }
  interface SaxonJSApi {
    XPath: {
      evaluate(expr: string, context?: unknown, options?: XPathOptions): any;
      [member: string]: any;
    };
    XS: Record<string, any>;
    transform(options: Record<string, unknown>, mode?: 'sync' | 'async'): any;
    serialize(value: unknown, options?: Record<string, unknown>): string;
    getResource(options: Record<string, unknown>): Promise<any>;
    getPlatform(): any;
    registerExtensionFunctions(library: unknown): void;
    internals: any;
    [member: string]: any;
  }
  const SaxonJS: SaxonJSApi;
  export = SaxonJS;
}
