export * from './json-document';
export { markdownToDocument, parseMarkdown } from './markdown-to-document';
export { DOCUMENT_MAX_DEPTH, DOCUMENT_MAX_NODES, documentToMarkdown } from './document-to-markdown';
export { referencesOf } from './references';
