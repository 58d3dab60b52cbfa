// Vite's types for the renderer: CSS imports and import.meta.env.
/// <reference types="vite/client" />
