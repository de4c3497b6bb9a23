/**
 * What the system modules share to describe their native tools ({@link dev.msgbench.core.system.NativeTool}):
 * finding a program, fetching a Java tool's class path from Maven Central or building one, and
 * reading a figure from a tool's printed output.
 */
package dev.msgbench.core.nativetool;
