// The conformance suite's fixture tools, resources and prompts: registered only in tests, through the
// server's `register` option, so the product never lists them.
import { completable, type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { registerInputFixtures } from './input-fixtures.js';

// A 1x1 PNG (one red pixel): the smallest image the content checks accept.
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
// A short RIFF/WAVE header with no samples: valid base64 audio for the audio check.
const EMPTY_WAV = Buffer.from(
  'RIFF$\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0@\x1f\0\0\x80>\0\0\x02\0\x10\0data\0\0\0\0',
  'latin1',
).toString('base64');

/** Registers what the suite's server scenarios call by name (tools, resources, a template, prompts). */
export function registerConformanceFixtures(server: McpServer): void {
  registerFixtureTools(server);
  registerFixtureResources(server);
  registerFixturePrompts(server);
  registerInputFixtures(server);
}

function registerFixtureTools(server: McpServer): void {
  server.registerTool('test_simple_text', { description: 'Fixture: one text block.' }, () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }));
  server.registerTool('test_image_content', { description: 'Fixture: one image block.' }, () => ({
    content: [{ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Fixture: one audio block.' }, () => ({
    content: [{ type: 'audio', data: EMPTY_WAV, mimeType: 'audio/wav' }],
  }));
  server.registerTool('test_embedded_resource', { description: 'Fixture: an embedded resource.' }, () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'Embedded resource content.',
        },
      },
    ],
  }));
  server.registerTool(
    'test_multiple_content_types',
    { description: 'Fixture: text, image, resource.' },
    () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool('test_error_handling', { description: 'Fixture: always a tool error.' }, () => ({
    content: [{ type: 'text', text: 'This tool intentionally returns an error for testing.' }],
    isError: true,
  }));
}

function registerFixtureResources(server: McpServer): void {
  server.registerResource('static-text', 'test://static-text', { mimeType: 'text/plain' }, (uri) => ({
    contents: [
      { uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ],
  }));
  server.registerResource('static-binary', 'test://static-binary', { mimeType: 'image/png' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: PIXEL_PNG }],
  }));
  server.registerResource('watched', 'test://watched-resource', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'A resource clients subscribe to.' }],
  }));
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );
}

function registerFixturePrompts(server: McpServer): void {
  server.registerPrompt('test_simple_prompt', { description: 'Fixture: no arguments.' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'Fixture: two arguments, the first completable.',
      argsSchema: {
        arg1: completable(z.string().describe('First test argument'), (value) =>
          ['paris', 'park', 'party'].filter((v) => v.startsWith(value)),
        ),
        arg2: z.string().describe('Second test argument'),
      },
    },
    ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'Fixture: embeds the named resource.', argsSchema: { resourceUri: z.string() } },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'Fixture: an image message.' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
}
