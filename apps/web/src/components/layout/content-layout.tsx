import type { ReactNode } from 'react';
import styles from './content-layout.module.css';

/** A signed-in screen: its heading (also the document title) and its content. */
export function ContentLayout({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <>
      <title>{`${title} | LND`}</title>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </>
  );
}
