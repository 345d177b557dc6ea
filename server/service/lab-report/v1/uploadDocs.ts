import { PARSER_MAX_FILE_BYTES } from '../../../contract';

/** OpenAPI request bodies of the multipart routes (see plugins/openapi.ts), keyed by "<method> <path>". */
export const MULTIPART_REQUEST_BODIES: Record<string, unknown> = {
  'post /lab_report/v1/parser/job': {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file', 'user_id'],
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              description: `The report: PDF, JPEG or PNG (read from the content), at most ${PARSER_MAX_FILE_BYTES} bytes`,
            },
            user_id: { type: 'string', format: 'uuid', description: "One of the team's users" },
            needs_human_review: { type: 'string', enum: ['true', 'false'], description: 'Send the job to human review whatever the parser finds' },
          },
        },
      },
    },
  },
};
