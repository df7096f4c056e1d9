import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

import { hexLine } from './previewKind';

const LINE_HEIGHT = 20;

/** Offset, hex bytes and ASCII, sixteen bytes a line, virtualized. A named group: inside a PDF's <object> (its fallback) a plain div may not carry a label. */
export function HexView({ bytes }: { bytes: Uint8Array }) {
  const ref = useRef<HTMLDivElement>(null);
  const lines = Math.ceil(bytes.length / 16);
  const v = useVirtualizer({ count: lines, getScrollElement: () => ref.current, estimateSize: () => LINE_HEIGHT, overscan: 20 });
  return (
    <div ref={ref} className="hex-view mono" data-testid="hex-view" tabIndex={0} role="group" aria-label="Hex dump">
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => (
          <div key={item.index} className="hex-line" style={{ transform: `translateY(${item.start}px)`, height: LINE_HEIGHT }}>
            {hexLine(bytes, item.index * 16)}
          </div>
        ))}
      </div>
    </div>
  );
}
