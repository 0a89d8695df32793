import multipart from '@fastify/multipart';
import type { App } from '../../http/types.js';
import type { Container } from '../../container.js';
import { contentDisposition } from './content.js';
import { DocumentIdParams, DocumentListQuery, DocumentPage, DocumentSchema, DocumentUploadForm } from './schemas.js';
import { multipartLimits, readUpload, uploadedFile } from './upload.js';

const binary = { schema: { type: 'string', format: 'binary' } };

export function documentRoutes(app: App, { services }: Container) {
  const documents = services.documents;
  const tags = ['Documents'];

  // Multipart parsing exists only inside this scope: every other route stays JSON-only.
  app.register(async (instance) => {
    const uploads = instance as unknown as App;
    await uploads.register(multipart, { limits: multipartLimits, throwFileSizeLimit: true });
    uploads.post(
      '/documents',
      {
        config: { permission: 'MANAGE' },
        preValidation: readUpload,
        schema: {
          tags,
          summary: 'Upload a document of a customer or beneficial owner (multipart/form-data)',
          description:
            'One file part named "file": PDF, JPEG or PNG, recognised by its content, 1 byte to 10 MiB. An Idempotency-Key replay is recognised by the form fields and the SHA-256 of the file.',
          consumes: ['multipart/form-data'],
          body: DocumentUploadForm,
          response: { 201: DocumentSchema },
        },
      },
      async (req, reply) => {
        reply.code(201);
        return documents.upload(req.auth, req.body, uploadedFile(req));
      },
    );
  });

  app.get(
    '/documents',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'List documents, newest first, optionally of one holder', querystring: DocumentListQuery, response: { 200: DocumentPage } },
    },
    async (req) => {
      const { documentHolder, limit, cursor } = req.query;
      return documents.list(req.auth, { documentHolder }, { limit, cursor });
    },
  );

  app.get(
    '/documents/:documentId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'Retrieve a document (its metadata)', params: DocumentIdParams, response: { 200: DocumentSchema } },
    },
    async (req) => documents.get(req.auth, req.params.documentId),
  );

  app.get(
    '/documents/:documentId/content',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: 'Download the file of a document, as an attachment',
        params: DocumentIdParams,
        response: { 200: { description: 'The bytes as uploaded', content: { 'application/pdf': binary, 'image/jpeg': binary, 'image/png': binary } } },
      },
    },
    async (req, reply) => {
      const file = await documents.content(req.auth, req.params.documentId);
      return reply.type(file.contentType).header('Content-Disposition', contentDisposition(file.fileName)).header('ETag', `"${file.sha256}"`).send(file.bytes);
    },
  );

  app.delete(
    '/documents/:documentId',
    {
      config: { permission: 'MANAGE' },
      schema: { tags, summary: 'Delete a document and its file for good', params: DocumentIdParams, response: { 200: DocumentSchema } },
    },
    async (req) => documents.remove(req.auth, req.params.documentId),
  );
}
