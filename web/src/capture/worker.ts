// The capture-parsing Web Worker: reads a File or a URL and posts back the ReplayModel. Started
// by client.ts. A 100 MB capture is read here, chunk by chunk, so the page never freezes.

import { serveCaptureParsing, type CaptureEndpoint } from './serve';

// The site is type-checked with the DOM library, where `self` is a Window; in a Worker its
// postMessage takes (message, transfer), which is what CaptureEndpoint describes.
serveCaptureParsing(self as unknown as CaptureEndpoint);
