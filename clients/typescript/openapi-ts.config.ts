// How @hey-api/openapi-ts makes the TypeScript client in src/ from the gateway's OpenAPI document (`make stubs`;
// `make check-stubs` makes it again into a scratch folder and compares). scripts/generate-typescript-client names
// the document and the output folder; imports end in `.js`, so the compiled modules load in a browser as they are.
export default {
  input: process.env.KICKOFF_OPENAPI_DOCUMENT ?? 'openapi.json',
  output: {
    path: process.env.KICKOFF_TYPESCRIPT_CLIENT ?? 'src',
    module: { extension: '.js' },
  },
  plugins: ['@hey-api/typescript', '@hey-api/sdk', '@hey-api/client-fetch'],
};
