import { afterAll } from 'vitest';
import { closeSharedRenderer } from './app.ts';

// Vitest's setup file for the server projects: what a test file's apps shared ends with the file.
afterAll(closeSharedRenderer);
